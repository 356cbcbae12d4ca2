// Programs that misbehave on the host side, for the validate bounds tests:
//   hang PIDFILE   starts a child that sleeps (same process group), writes its pid to PIDFILE, spins forever
//   flood MB       writes MB MiB to stdout and MB MiB to stderr, then its result line, and exits 0
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
  std::printf("usage: prog_hostile hang PIDFILE | flood MB\n");
  return 2;
}
