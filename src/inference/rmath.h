/* R's standalone math library (Debian r-mathlib), included in one place: it must be
 * told it is used outside R, and it defines TRUE/FALSE and other names of its own. */
#ifndef LOADGEN_RMATH_H
#define LOADGEN_RMATH_H

#define MATHLIB_STANDALONE 1
#include <Rmath.h>

#endif
