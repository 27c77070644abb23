"""Confine an engine's process before it runs a line of an engine's code (Linux; weaker elsewhere, said once).

`python -m framework.engine.sandbox CONFIG_JSON -- ARGV...` applies the confinement to itself and then execs
ARGV (a program; on Linux a Python agent's engine host is forked by `forkserver`, and confines itself with the same
`confine`), so a Python agent's engine host and a program in any language are confined the same way:

- its own session and process group (the referee starts it so) and PR_SET_PDEATHSIG: it dies with its referee;
- RLIMIT_CORE 0 (no core dumps) and, when asked, RLIMIT_AS (its address space);
- a pids control group of its own with `pids.max` (holds for root, unlike RLIMIT_NPROC) and a cpuacct group the
  referee reads its CPU time from: every thread and every child it starts is counted;
- Landlock (ABI 1 and up): no writes outside its private folder and the engines' numba cache; reads only
  beneath the Python installation, the system folders and the plugin sources (so not the results folder);
  from ABI 4 no TCP bind or connect; from ABI 6 no signals to, nor ptrace of, processes outside its own
  domain (other engines, the referee, the runner).

What cannot be confined here is reported by `mechanisms()`; the referee prints it once per run.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import signal
import sys
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

#: Where the control groups of this machine's engines live (cgroup v1 hierarchies, or v2's unified one).
PIDS_ROOT = Path("/sys/fs/cgroup/pids/plyground")
CPUACCT_ROOT = Path("/sys/fs/cgroup/cpuacct/plyground")
#: Processes (threads count) one engine may have at once.
MAX_PROCESSES = 256

# prctl(2) and Landlock's system calls (the same numbers on every Linux architecture since 5.13).
PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38
SYS_LANDLOCK_CREATE_RULESET = 444
SYS_LANDLOCK_ADD_RULE = 445
SYS_LANDLOCK_RESTRICT_SELF = 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
WRITES = sum(1 << bit for bit in range(4, 13))          # remove, make dir/file/socket/fifo/device/symlink
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15  # ABI 2, 3, 5
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1           # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def landlock_abi() -> int:
    """The Landlock ABI version this kernel offers (0: none, or not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        syscall = _libc().syscall
        syscall.restype = ctypes.c_long
        version = syscall(SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0),
                          ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION))
    except (OSError, AttributeError):
        return 0
    return max(int(version), 0)


@dataclass(frozen=True)
class Confinement:
    """What one engine's process is confined to (sent to the launcher as JSON)."""

    private: str                                 # its private folder: cwd, TMPDIR, the only place it may write
    readable: tuple[str, ...] = ()               # folders it may read beneath, besides the system's
    writable: tuple[str, ...] = ()               # folders it may write beneath, besides `private`
    memory_limit: int | None = None              # RLIMIT_AS in bytes (None: no cap)
    pids_group: str | None = None                # its pids control group (None: none could be made)
    cpu_group: str | None = None                 # its cpuacct control group
    max_processes: int = MAX_PROCESSES


def system_folders() -> tuple[str, ...]:
    """Folders every process needs to read: the Python installation and the system's libraries and settings."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(sys.executable).resolve().parent.parent)}
    roots.update(("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/proc", "/sys", "/dev", "/opt"))
    return tuple(sorted(r for r in roots if os.path.isdir(r)))


def _landlock(confinement: Confinement, abi: int) -> None:
    """Restrict this process (and whatever it execs or forks) as the module's docstring says."""
    libc = _libc()
    syscall = libc.syscall
    syscall.restype = ctypes.c_long
    write = WRITE_FILE | WRITES | (REFER if abi >= 2 else 0) | (TRUNCATE if abi >= 3 else 0)
    read = EXECUTE | READ_FILE | READ_DIR | (IOCTL_DEV if abi >= 5 else 0)
    attr = _RulesetAttr(read | write, (NET_BIND_TCP | NET_CONNECT_TCP) if abi >= 4 else 0,
                        (SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET) if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    ruleset = syscall(SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")

    def allow(paths: Iterable[str], access: int) -> None:
        for path in paths:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            is_dir = os.path.isdir(path)
            rule = _PathBeneath(access if is_dir else access & (EXECUTE | READ_FILE | WRITE_FILE | TRUNCATE
                                                                 | IOCTL_DEV), fd)
            done = syscall(SYS_LANDLOCK_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(LANDLOCK_RULE_PATH_BENEATH),
                           ctypes.byref(rule), ctypes.c_uint32(0))
            os.close(fd)
            if done < 0:
                raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")

    allow((*system_folders(), *confinement.readable), read)
    allow(("/dev/null", "/dev/zero", "/dev/urandom", "/dev/shm"), read | write)
    allow((confinement.private, *confinement.writable), read | write)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if syscall(SYS_LANDLOCK_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) < 0:
        raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    os.close(ruleset)


def confine(confinement: Confinement) -> None:
    """Apply `confinement` to this process (the launcher, before it execs the engine)."""
    if sys.platform.startswith("linux"):
        _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for group in (confinement.pids_group, confinement.cpu_group):
        if group is not None:
            Path(group, "cgroup.procs").write_text(str(os.getpid()))
    if confinement.pids_group is None and hasattr(resource, "RLIMIT_NPROC"):
        # Weaker: counts every process of this user, and does not bind root.
        resource.setrlimit(resource.RLIMIT_NPROC, (confinement.max_processes, confinement.max_processes))
    if confinement.memory_limit is not None:
        resource.setrlimit(resource.RLIMIT_AS, (confinement.memory_limit, confinement.memory_limit))
    abi = landlock_abi()
    if abi >= 1:
        _landlock(confinement, abi)


def killed_with_parent(parent: int) -> None:
    """Have Linux kill this process when the thread that started it ends (prctl PR_SET_PDEATHSIG); exit now when
    `parent`, that process, has already gone."""
    if sys.platform.startswith("linux"):
        _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


def limit_memory(extra: int) -> None:
    """Cap this process's address space at what it maps now plus `extra` bytes (RLIMIT_AS; children inherit it)."""
    mapped = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = mapped + extra
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def oom_kills() -> int:
    """Processes the kernel's OOM killer has killed since boot (/proc/vmstat oom_kill, Linux 4.13+; else 0)."""
    try:
        for line in Path("/proc/vmstat").read_text().splitlines():
            if line.startswith("oom_kill "):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def make_groups(name: str, max_processes: int = MAX_PROCESSES) -> tuple[str | None, str | None]:
    """A pids group (with `pids.max`) and a cpuacct group named `name`, each None where it cannot be made."""
    made: list[str | None] = []
    for root, limit in ((PIDS_ROOT, f"{max_processes}"), (CPUACCT_ROOT, None)):
        try:
            group = root / name
            group.mkdir(parents=True, exist_ok=True)
            if limit is not None:
                (group / "pids.max").write_text(limit)
            made.append(str(group))
        except OSError:
            made.append(None)
    return made[0], made[1]


def group_pids(group: str) -> list[int]:
    """The processes in a control group."""
    try:
        return [int(line) for line in Path(group, "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


def remove_group(group: str | None) -> None:
    """Kill whatever is left in a control group, then remove it."""
    if group is None:
        return
    for _ in range(100):
        pids = group_pids(group)
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        import time
        time.sleep(0.005)
    try:
        os.rmdir(group)
    except OSError:
        pass


def sweep_orphans() -> int:
    """Kill the engines left by runners that are gone (a `kill -9` of a runner: PR_SET_PDEATHSIG ends each
    engine's first process, this its children), and remove their groups; how many groups were removed."""
    removed = 0
    for root in (PIDS_ROOT, CPUACCT_ROOT):
        if not root.is_dir():
            continue
        for group in root.iterdir():
            owner = group.name.split("-", 1)[0]
            if owner.isdigit() and not _running(int(owner)):
                remove_group(str(group))
                removed += 1
    return removed


def _running(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False


@dataclass(frozen=True)
class Mechanisms:
    """What confines an engine on this machine."""

    landlock_abi: int
    pids_group: bool
    cpu_group: bool
    platform: str = field(default_factory=lambda: sys.platform)

    def lines(self) -> list[str]:
        """One line per mechanism, saying what holds."""
        abi = self.landlock_abi
        return [
            "own session and process group; dies with its referee (PR_SET_PDEATHSIG); no core dumps; RLIMIT_AS",
            (f"process limit: pids control group, {MAX_PROCESSES} processes (binds root too)" if self.pids_group
             else "process limit: RLIMIT_NPROC only (weaker: it does not bind root, and counts the user's processes)"),
            ("CPU time: cpuacct control group (every thread and child)" if self.cpu_group
             else "CPU time: /proc of the engine's process and its waited children (weaker: misses orphans)"),
            (f"files: Landlock ABI {abi}: writes only to its private folder and the engines' numba cache, reads "
             "only beneath the Python installation, the system folders and the plugin sources" if abi
             else "files: no Landlock (weaker: an engine may write wherever its user may)"),
            ("network: no TCP bind or connect (Landlock)" if abi >= 4 else "network: not confined"),
            ("signals: none to processes outside its own Landlock domain (ABI 6 scope)" if abi >= 6
             else "signals: not confined beyond the user's rights (weaker: needs Landlock ABI 6)"),
        ]

    @property
    def weaker(self) -> bool:
        return not (self.landlock_abi >= 6 and self.pids_group and self.cpu_group)


def mechanisms() -> Mechanisms:
    """Which mechanisms this machine offers (made and removed a trial group)."""
    pids, cpu = make_groups(f"{os.getpid()}-probe")
    for group in (pids, cpu):
        remove_group(group)
    return Mechanisms(landlock_abi(), pids is not None, cpu is not None)


def launch_command(confinement: Confinement, argv: Sequence[str]) -> list[str]:
    """The command that starts `argv` confined."""
    return [sys.executable, "-m", "framework.engine.sandbox", json.dumps(asdict(confinement)), "--", *argv]


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        print("usage: python -m framework.engine.sandbox CONFIG_JSON -- ARGV...", file=sys.stderr)
        return 2
    config = json.loads(argv[1])
    config["readable"] = tuple(config["readable"])
    config["writable"] = tuple(config["writable"])
    confinement = Confinement(**config)
    try:
        confine(confinement)
    except OSError as exc:
        print(f"plyground sandbox: cannot confine the engine: {exc}", file=sys.stderr)
        return 126
    os.chdir(confinement.private)
    try:
        os.execvp(argv[3], argv[3:])
    except OSError as exc:
        print(f"plyground sandbox: cannot start {argv[3]!r}: {exc}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv))
