// doctest's implementation, compiled once for every suite (each suite's main
// is its own small file).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
