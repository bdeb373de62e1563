"""The .deb's control fields as CPack will write them (build/CPackConfig.cmake, no cpack
run: that takes a minute): the Maintainer is a name and a mail address, not a placeholder;
the summary fits one line; the long description is the text of cmake/install.cmake to the
character (a ';' in it once vanished on the way), in lines of at most 79 characters, whole
sentences, each paragraph ending with a full stop. tests/package/check-deb.sh checks the
same in the built package. Exit 77 without a configured CPack."""
import os
import re
import subprocess
import sys

from lgtest import LOADGEN, SOURCE, check, tmpdir, write

config = os.path.join(os.path.dirname(LOADGEN), "CPackConfig.cmake")
if not os.path.exists(config):
    print("SKIP: no %s" % config)
    sys.exit(77)

# The values as CPack reads them: include the config and print each, delimited.
d = tmpdir()
script = write(os.path.join(d, "fields.cmake"), """include("%s")
foreach(v CPACK_PACKAGE_CONTACT CPACK_PACKAGE_DESCRIPTION_SUMMARY CPACK_PACKAGE_DESCRIPTION)
  message("<<${v}>>${${v}}<<end>>")
endforeach()
""" % config)
p = subprocess.run(["cmake", "-P", script], capture_output=True, text=True)
check(p.returncode == 0, "cmake -P reads CPackConfig.cmake", p)
fields = dict(re.findall(r"<<(\w+)>>(.*?)<<end>>", p.stderr, re.S))
maintainer = fields.get("CPACK_PACKAGE_CONTACT", "")
summary = fields.get("CPACK_PACKAGE_DESCRIPTION_SUMMARY", "")
desc = fields.get("CPACK_PACKAGE_DESCRIPTION", "")

m = re.fullmatch(r"([^<>@]+) <[^@\s<>]+@([a-z0-9-]+(?:\.[a-z0-9-]+)+)>", maintainer)
check(m and m.group(2) != "localhost" and "localdomain" not in m.group(2),
      "Maintainer is 'Name <user@domain>' (%r)" % maintainer)
check(0 < len(summary) <= 80 and not summary.endswith(".") and "\n" not in summary,
      "the summary is one line of at most 80 characters without a full stop (%r)" % summary)

# The source text, unescaped: what the package must say, every character of it.
src = open(os.path.join(SOURCE, "cmake", "install.cmake")).read()
block = re.search(r"string\(CONCAT CPACK_PACKAGE_DESCRIPTION\s*\n(.*?)\)\n", src, re.S)
check(block, "cmake/install.cmake sets the description with string(CONCAT ...)")
want = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', block.group(1))).replace("\\n", "\n")
check(desc == want, "the description reaches CPack unchanged\n  got:  %r\n  want: %r" % (
    desc, want))
lines = desc.split("\n")
check(all(len(l) <= 79 for l in lines),
      "description lines are at most 79 characters (%s)" % [l for l in lines if len(l) > 79])
for para in desc.split("\n\n"):
    text = " ".join(para.split())
    check(text.endswith("."), "a paragraph ends with a full stop (%r)" % text[-40:])
    starts = [s[:12] for s in re.split(r"(?<=[.!?]) ", text)]
    check(all(s[0].isupper() or s.startswith("loadgen ") for s in starts),
          "each sentence starts with a capital or the command's name (%s)" % starts)
