/* The subcommands: each is one file in cli/ and one entry in main.c's table. */
#ifndef MPGPU_COMMANDS_H
#define MPGPU_COMMANDS_H

int cmd_mul(int argc, char **argv);
int cmd_toom(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_collatz(int argc, char **argv);
int cmd_delay(int argc, char **argv);
int cmd_fixed(int argc, char **argv);
int cmd_ctt_vs_ctw(int argc, char **argv);
int cmd_gcd(int argc, char **argv);
int cmd_compare(int argc, char **argv);

#endif
