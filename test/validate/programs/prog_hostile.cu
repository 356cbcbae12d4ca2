// Programs that misbehave on the host side, for the validate bounds tests:
//   hang PIDFILE   starts a child that sleeps (same process group), writes its pid to PIDFILE, spins forever
//   flood MB       writes MB MiB to stdout and MB MiB to stderr, then its result line, and exits 0
//   daemon PIDFILE a daemon (double fork, setsid) that writes its pid to PIDFILE and sleeps
//                  forever; exits 0 once the daemon has written PIDFILE
//   files          reads ./data.txt (must hold "input data"), then writes ./out.txt and
//                  overwrites ./data.txt; exits 3 when ./data.txt is not there
//   slow-original  exits 0, after 2 s when its working directory is the original's
//   heap-reuse     allocates, fills and frees 256 MiB twice; prints the page faults of
//                  each fill and exits 5 when the second took more than an eighth of
//                  the first's (its pages were not reused)
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <string>
#include <unistd.h>
int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!std::strcmp(mode, "hang") && argc > 2) {
    pid_t c = fork();
    if (c == 0) {
      for (;;)
        sleep(1000);
    }
    if (FILE *f = std::fopen(argv[2], "w")) {
      std::fprintf(f, "%d\n", (int)c);
      std::fclose(f);
    }
    volatile unsigned long spin = 0;
    for (;;)
      ++spin;
  }
  if (!std::strcmp(mode, "flood") && argc > 2) {
    long mb = std::atol(argv[2]);
    static char line[1024];
    std::memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    for (long i = 0; i < mb * 1024; ++i) {
      std::fwrite(line, 1, sizeof line, stdout);
      std::fwrite(line, 1, sizeof line, stderr);
    }
    std::printf("flood done\n");
    return 0;
  }
  if (!std::strcmp(mode, "daemon") && argc > 2) {
    std::string tmp = std::string(argv[2]) + ".tmp";
    pid_t c = fork();
    if (c == 0) {
      setsid();
      if (fork() == 0) {
        // The daemon: its own session, its parent gone.
        if (FILE *f = std::fopen(tmp.c_str(), "w")) {
          std::fprintf(f, "%d\n", (int)getpid());
          std::fclose(f);
          std::rename(tmp.c_str(), argv[2]);
        }
        for (;;)
          sleep(1000);
      }
      _exit(0);
    }
    for (int i = 0; i < 1000 && access(argv[2], F_OK) != 0; ++i)
      usleep(10000);
    std::printf("daemon started\n");
    return access(argv[2], F_OK) == 0 ? 0 : 4;
  }
  if (!std::strcmp(mode, "heap-reuse")) {
    const std::size_t n = std::size_t(256) << 20;
    long faults[2];
    for (int k = 0; k < 2; ++k) {
      rusage a, b;
      getrusage(RUSAGE_SELF, &a);
      char *p = (char *)std::malloc(n);
      if (!p)
        return 6;
      std::memset(p, k + 1, n);
      asm volatile("" : : "r"(p) : "memory"); // the fill is not dead
      getrusage(RUSAGE_SELF, &b);
      faults[k] = b.ru_minflt - a.ru_minflt;
      std::free(p);
    }
    std::printf("page faults: %ld then %ld\n", faults[0], faults[1]);
    return faults[1] * 8 > faults[0] ? 5 : 0;
  }
  if (!std::strcmp(mode, "files")) {
    char buf[64] = {0};
    FILE *in = std::fopen("data.txt", "r");
    if (!in || !std::fgets(buf, sizeof buf, in)) {
      std::printf("no ./data.txt\n");
      return 3;
    }
    std::fclose(in);
    if (std::strcmp(buf, "input data\n")) {
      std::printf("./data.txt holds '%s'\n", buf);
      return 3;
    }
    for (const char *name : {"out.txt", "data.txt"})
      if (FILE *o = std::fopen(name, "w")) {
        std::fprintf(o, "written by the program\n");
        std::fclose(o);
      }
    std::printf("files done\n");
    return 0;
  }
  if (!std::strcmp(mode, "slow-original")) {
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) && std::strstr(cwd, "/original/"))
      sleep(2);
    return 0;
  }
  std::printf("usage: prog_hostile hang PIDFILE | flood MB | daemon PIDFILE | files | "
              "slow-original\n");
  return 2;
}
