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
-- last column. Instead each column gets at least its longest word (so tbl never has to
-- break one: "can't break line") and the room left goes to the columns with long cells.
-- Widths are fractions of pandoc's 70 columns; BUDGET keeps a table within an 80-column
-- terminal (7 columns of indent, 3 between columns). Cells are set ragged-right and
-- unhyphenated (.ad l, .nh): justified text in a narrow cell leaves troff "cannot adjust
-- line". Afterwards the man macros' hyphenation (register HY) and adjustment come back.
local BUDGET = 68
local function width_of(text)
  return utf8.len(text) or #text
end

function Table(el)
  local minw, want, n = {}, {}, #el.colspecs
  for i = 1, n do minw[i], want[i] = 4, 4 end
  local function measure(rows)
    for _, row in ipairs(rows) do
      for i, cell in ipairs(row.cells) do
        local text = pandoc.utils.stringify(cell.contents)
        if minw[i] then
          for word in text:gmatch("%S+") do minw[i] = math.max(minw[i], width_of(word)) end
          want[i] = math.max(want[i], minw[i], math.min(width_of(text), 60))
        end
      end
    end
  end
  measure(el.head.rows)
  for _, body in ipairs(el.bodies) do measure(body.body) end
  local budget, summin, sumextra = BUDGET - 3 * (n - 1), 0, 0
  for i = 1, n do
    summin = summin + minw[i]
    sumextra = sumextra + want[i] - minw[i]
  end
  for i, spec in ipairs(el.colspecs) do
    local w = minw[i] * math.min(1, budget / summin)
    if summin < budget and sumextra > 0 then
      w = w + math.min(1, (budget - summin) / sumextra) * (want[i] - minw[i])
    end
    el.colspecs[i] = { spec[1], (w + 0.5) / 70 }
  end
  local before = pandoc.RawBlock("man", ".ad l\n.nh")
  local after = pandoc.RawBlock("man", ".ie r HY .hy \\n[HY]\n.el .hy\n.ad b")
  return { before, el, after }
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
