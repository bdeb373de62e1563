-- pandoc Lua filter: loadfiles/README.md (GitHub Markdown) -> loadgen-workload(5).
-- The README stays the one source; this only reshapes it into a man page: the title
-- becomes NAME, "##" sections become .SH (and "###" .SS), links inside the README or
-- to files next to it keep their text only, the contents line goes, SEE ALSO is added.

local function is_local(target)
  return not target:match("^%a[%w+.-]*:")
end

function Link(el)
  if is_local(el.target) then
    return el.content
  end
end

-- The README's pipe tables give every column the same width, which squeezes the long
-- last column; weigh each column by its longest cell instead (within limits).
function Table(el)
  local longest, total = {}, 0
  for i = 1, #el.colspecs do longest[i] = 8 end
  local function measure(rows)
    for _, row in ipairs(rows) do
      for i, cell in ipairs(row.cells) do
        local text = pandoc.utils.stringify(cell.contents)
        local n = math.min(#text, 60)
        for word in text:gmatch("%S+") do n = math.max(n, 2 * #word) end
        if longest[i] and n > longest[i] then longest[i] = n end
      end
    end
  end
  measure(el.head.rows)
  for _, body in ipairs(el.bodies) do measure(body.body) end
  for i = 1, #longest do total = total + longest[i] end
  for i, spec in ipairs(el.colspecs) do
    el.colspecs[i] = { spec[1], 0.8 * longest[i] / total } -- tbl adds the gaps
  end
  return el
end

function Header(el)
  if el.level == 1 then
    return {}
  end
  el.level = el.level - 1
  return el
end

function Para(el)
  if el.content[1] and el.content[1].text == "Contents:" then
    return {}
  end
end

function Pandoc(doc)
  local head = {
    pandoc.Header(1, "NAME"),
    pandoc.Para({ pandoc.Str("loadgen-workload"), pandoc.Space(), pandoc.Str("-"),
      pandoc.Space(), pandoc.Str("the YAML workload files of loadgen") }),
    pandoc.Header(1, "DESCRIPTION"),
  }
  local tail = {
    pandoc.Header(1, "SEE ALSO"),
    pandoc.Para({ pandoc.Strong("loadgen"), pandoc.Str("(1),"), pandoc.Space(),
      pandoc.Strong("loadgen-import"), pandoc.Str("(1)") }),
  }
  local blocks = head
  for _, b in ipairs(doc.blocks) do
    table.insert(blocks, b)
  end
  for _, b in ipairs(tail) do
    table.insert(blocks, b)
  end
  return pandoc.Pandoc(blocks, doc.meta)
end
