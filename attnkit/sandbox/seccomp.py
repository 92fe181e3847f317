"""Seccomp filters for a sandbox process and all it starts: the system calls through which one sandbox
could reach another, or the grader's kernel keyring, fail (EPERM).

Two filters, installed by `isolation`: `deny_the_kernel_keyring` (add_key, request_key, keyctl) for
every sandbox with a uid of its own, and `deny_sockets` (sockets and the kernel objects sandboxes could
share) for every sandbox. Each also refuses every system call of another architecture (i386 through
int 0x80, x32), whose numbers would slip past it. The numbers are listed per machine (x86_64, aarch64);
elsewhere a filter fails with ENOSYS rather than guess.
"""
from __future__ import annotations

import ctypes
import errno
import platform
from collections.abc import Mapping

from attnkit.sandbox.libc import LIBC, check

PR_SET_SECCOMP = 22

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}  # machine: seccomp's name for its system calls
KEYRING_CALLS = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}  # add_key, request_key, keyctl
# What sandboxes could share through the kernel: socket, socketpair (a pair's end can be bound to an abstract
# name), io_uring_setup (its rings open sockets), flock, inotify_init(1) (events on files all sandboxes read).
SHARED_OBJECT_CALLS = {"x86_64": (41, 53, 425, 73, 253, 294), "aarch64": (198, 199, 425, 32, 26)}
FCNTL_CALL = {"x86_64": 72, "aarch64": 25}
# fcntl's record locks, open file description locks, leases and directory notices: on files every sandbox reads
FCNTL_SHARED_COMMANDS = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
KEYCTL_JOIN_SESSION_KEYRING = 1

SECCOMP_MODE_FILTER = 2
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
BPF_LD_W_ABS, BPF_JEQ_K, BPF_JGE_K, BPF_RET_K = 0x20, 0x15, 0x35, 0x06
X32_SYSCALL_BIT = 0x40000000


def _system_calls(numbers: Mapping[str, tuple[int, ...]], what: str) -> tuple[int, tuple[int, ...]]:
    """This machine's audit arch and its numbers from `numbers`; ENOSYS where either is not known."""
    machine = platform.machine()
    if machine not in AUDIT_ARCH or machine not in numbers:
        raise OSError(errno.ENOSYS, f"{what} system calls are not known on {machine}")
    return AUDIT_ARCH[machine], numbers[machine]


def keyctl(*args: int | None) -> int:
    """The keyctl system call (glibc has no wrapper); None passes a NULL pointer."""
    number = _system_calls(KEYRING_CALLS, "the kernel keyring's")[1][2]
    result = LIBC.syscall(ctypes.c_long(number), *(ctypes.c_long(a) if a is not None else None for a in args))
    if result < 0:
        check(result, "keyctl")
    return result


def join_own_session_keyring() -> None:
    """As root: a new, empty, anonymous session keyring, so the grader's (and any key in it) is out of reach.

    The seccomp filter of `deny_the_kernel_keyring` already refuses student code
    every keyring call; this holds should that filter ever be lifted. A kernel
    without keyrings has none to share.
    """
    try:
        keyctl(KEYCTL_JOIN_SESSION_KEYRING, None)
    except OSError as error:
        if error.errno != errno.ENOSYS:
            raise


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def deny_the_kernel_keyring() -> None:
    """A seccomp filter, for this process and all it starts: add_key, request_key and keyctl fail (EPERM).

    The kernel keyring belongs to the machine, not to a namespace: a key with open
    permissions is listed in /proc/keys and readable by every uid, a named keyring
    can be joined by name, and a uid's user keyrings outlive its processes (and
    sandbox uids come back). So one student's code could leave data for another's.
    Student code has no use for it. System calls of another architecture (i386
    through int 0x80, x32) are refused altogether. Needs no_new_privs (or root).
    """
    _deny_calls(*_system_calls(KEYRING_CALLS, "the kernel keyring's"))


def deny_sockets() -> None:
    """A seccomp filter, for this process and all it starts: no socket, and no kernel object another
    sandbox could reach: socket, socketpair, io_uring_setup, flock, inotify and fcntl's locks, leases and
    directory notices fail (EPERM).

    For a sandbox forked from the warm parent, which shares the parent's empty network namespace with
    every other sandbox: without a socket of its own (a pair's end can be bound to an abstract name), no
    code reaches another sandbox through an abstract unix socket or anything else. The files all
    sandboxes can read (`/usr`, the template) could carry bits as locks held or accesses watched, so
    locks and watches are refused too. Needs no_new_privs (set by `drop_privileges`).
    """
    arch, numbers = _system_calls(SHARED_OBJECT_CALLS, "the shared objects'")
    _deny_calls(arch, numbers, (FCNTL_CALL[platform.machine()], FCNTL_SHARED_COMMANDS))


def _deny_calls(arch: int, numbers: tuple[int, ...], by_argument: tuple[int, tuple[int, ...]] | None = None) -> None:
    """Install a seccomp filter refusing `numbers` (EPERM), and every call of another architecture;
    `by_argument`: a call refused only when its second argument is one of these (fcntl's commands)."""
    call, values = by_argument if by_argument is not None else (-1, ())
    checks = [*numbers, *([call] if values else [])]
    length = 4 + len(checks) + (1 + len(values) if values else 0) + 2
    deny = length - 1
    allow = length - 2

    def to(target: int, at: int) -> int:
        return target - at - 1

    program = [
        (BPF_LD_W_ABS, 0, 0, 4),  # seccomp_data.arch
        (BPF_JEQ_K, 0, to(deny, 1), arch),
        (BPF_LD_W_ABS, 0, 0, 0),  # seccomp_data.nr
        (BPF_JGE_K, to(deny, 3), 0, X32_SYSCALL_BIT),
        *[(BPF_JEQ_K, to(deny, 4 + i), 0, number) for i, number in enumerate(numbers)],
    ]
    if values:
        at = len(program)
        program += [(BPF_JEQ_K, 0, to(allow, at), call),
                    (BPF_LD_W_ABS, 0, 0, 24)]  # seccomp_data.args[1], its low 32 bits
        program += [(BPF_JEQ_K, to(deny, at + 2 + i), 0, value) for i, value in enumerate(values)]
    program += [(BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW), (BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.EPERM)]
    assert len(program) == length
    instructions = (_SockFilter * len(program))(*[_SockFilter(*instruction) for instruction in program])
    filter_program = _SockFprog(len(program), instructions)
    check(LIBC.prctl(ctypes.c_int(PR_SET_SECCOMP), ctypes.c_ulong(SECCOMP_MODE_FILTER),
                       ctypes.byref(filter_program), 0, 0), "seccomp")
