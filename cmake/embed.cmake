# Turn a text file into a C source defining a NUL-terminated char array.
# Usage: cmake -DINPUT=file -DOUTPUT=file.c -DSYMBOL=name -P embed.cmake
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}" "/* Generated from ${INPUT} by cmake/embed.cmake. */\n#include <stddef.h>\n"
     "const char ${SYMBOL}[] = {\n${bytes}0x00};\n"
     "const size_t ${SYMBOL}_len = sizeof(${SYMBOL}) - 1;\n")
