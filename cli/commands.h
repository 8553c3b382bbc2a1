/* The subcommands: each is one file in cli/ and one entry in main.c's table. */
#ifndef MPGPU_COMMANDS_H
#define MPGPU_COMMANDS_H

int cmd_mul(int argc, char **argv);

#endif
