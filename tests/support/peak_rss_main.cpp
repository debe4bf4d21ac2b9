// imgpar_peak_rss OUT PROGRAM ARGS...: runs PROGRAM and writes its peak
// resident set in KiB (ru_maxrss) to the file OUT; exits as PROGRAM did.
//
// Why a program of its own: a process's peak counts the memory of the
// process it was forked from, up to its exec (the kernel folds the old
// address space's high-water mark in). A test's own memory would inflate
// what it measures; this program is small, and PROGRAM is forked from it.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fputs("usage: imgpar_peak_rss OUT PROGRAM ARGS...\n", stderr);
        return 2;
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::execv(argv[2], argv + 2);
        std::perror(argv[2]);
        ::_exit(127);
    }
    int status = 0;
    struct rusage usage {};
    if (pid < 0 || ::wait4(pid, &status, 0, &usage) != pid) return 125;
    std::FILE* out = std::fopen(argv[1], "w");
    if (!out || std::fprintf(out, "%ld\n", usage.ru_maxrss) < 0 || std::fclose(out) != 0) return 125;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
