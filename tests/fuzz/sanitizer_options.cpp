// The sanitizers' defaults for the fuzz targets, built in so that replaying
// a reproducer by hand (fuzz_decode crash-...) reports what a fuzzing run
// reports: a stack trace for undefined behaviour, and leaks. ASAN_OPTIONS
// and UBSAN_OPTIONS in the environment still override them.
extern "C" const char* __asan_default_options() { return "detect_leaks=1"; }
extern "C" const char* __ubsan_default_options() { return "print_stacktrace=1"; }
