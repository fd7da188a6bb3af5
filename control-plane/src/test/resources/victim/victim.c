/* A process unrelated to kvfleet holding a secret at a known address (the target of forged records). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char PATTERN[] = "kvfleet-victim-secret-";
static char secret[65536] __attribute__((aligned(4096)));

int main(void) {
  for (size_t i = 0; i < sizeof secret; i++) secret[i] = PATTERN[i % (sizeof PATTERN - 1)];
  printf("victim-pid=%d\nvictim-address=%lu\n", getpid(), (unsigned long) secret);
  fflush(stdout);
  char line[64];
  while (fgets(line, sizeof line, stdin)) { /* each line asks: is the secret as it was? */
    size_t changed = 0;
    for (size_t i = 0; i < sizeof secret; i++) changed += secret[i] != PATTERN[i % (sizeof PATTERN - 1)];
    printf("victim-changed=%zu\n", changed);
    fflush(stdout);
  }
  return 0;
}
