#!/usr/bin/env python3
"""Runs a command with io_uring forbidden as container runtimes' default seccomp profiles forbid
it: io_uring_setup, io_uring_enter and io_uring_register fail with EPERM, every other system call
is allowed. The filter is inherited by everything the command starts. Linux on x86-64 or arm64.

    python3 eng/no-io-uring.py COMMAND [ARGUMENT...]
    python3 eng/no-io-uring.py benchmarks servers     # iouring: unavailable, and why
"""
import ctypes
import os
import platform
import struct
import sys

if len(sys.argv) < 2:
    sys.stderr.write("usage: no-io-uring.py COMMAND [ARGUMENT...]\n")
    sys.exit(2)

ARCHES = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}  # AUDIT_ARCH_*
arch = ARCHES.get(platform.machine())
if arch is None:
    sys.stderr.write(f"error: no-io-uring.py knows x86-64 and arm64, not {platform.machine()}\n")
    sys.exit(2)

LD_W_ABS, JEQ_K, RET_K = 0x20, 0x15, 0x06
ALLOW, ERRNO_EPERM = 0x7FFF0000, 0x00050000 | 1
IO_URING_SETUP, IO_URING_ENTER, IO_URING_REGISTER = 425, 426, 427  # the same on both architectures


def stmt(code, k):
    return struct.pack("HBBI", code, 0, 0, k)


def jeq(k, if_true, if_false):
    return struct.pack("HBBI", JEQ_K, if_true, if_false, k)


program = b"".join([
    stmt(LD_W_ABS, 4),            # seccomp_data.arch
    jeq(arch, 1, 0),
    stmt(RET_K, ALLOW),           # another architecture's calls: not ours to judge
    stmt(LD_W_ABS, 0),            # seccomp_data.nr
    jeq(IO_URING_SETUP, 3, 0),
    jeq(IO_URING_ENTER, 2, 0),
    jeq(IO_URING_REGISTER, 1, 0),
    stmt(RET_K, ALLOW),
    stmt(RET_K, ERRNO_EPERM),
])


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


libc = ctypes.CDLL(None, use_errno=True)
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
fprog = SockFprog(len(program) // 8, program)
if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
        libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
    sys.stderr.write(f"error: installing the seccomp filter failed: {os.strerror(ctypes.get_errno())}\n")
    sys.exit(1)

try:
    os.execvp(sys.argv[1], sys.argv[1:])
except OSError as e:
    sys.stderr.write(f"error: {sys.argv[1]}: {e.strerror}\n")
    sys.exit(127)
