"""The console lines that a crash parser takes for the start of a crash.

A report must read as one crash to every parser that watches a console:
only its "BUG: uaccess-kaddr:" header may look like the start of one.  Two
kinds of parser are modelled here:

- syzkaller's Linux parser (google/syzkaller pkg/report: the oops table of
  linux.go and the common one of report.go, as of August 2026).  It takes a
  line for a crash when the line contains one of the table's headers
  anywhere, unless one of that header's suppressions matches the line.
- the kernel's own log scanners (scripts and CI greps that key on the
  splats the kernel prints): WARNING:, BUG:, Oops, general protection
  fault, KASAN:, KFENCE:, Kernel panic.

The headers and suppressions are data taken from syzkaller's tables; the
matching is ours.
"""

import re

# (header, suppressions): header is a substring, each suppression a regex
# searched in the line.
SYZKALLER_LINUX = [
    ('BUG:', [r'ODEBUG:', r'Boot_DEBUG:', r'xlog_status:', r'DEBUG:',
              r'BUG: no syscalls can create resource']),
    ('WARNING:', [r'WARNING: /etc/ssh/moduli does not exist, using fixed modulus',
                  r'WARNING: workqueue cpumask: online intersect > possible intersect',
                  r'WARNING: [Tt]he mand mount option',
                  r'WARNING: Unsupported flag value\(s\) of 0x%x in DT_FLAGS_1',
                  r'WARNING: Unprivileged eBPF is enabled with eIBRS',
                  r"WARNING: fbcon: Driver '(.*)' missed to adjust virtual screen size",
                  r'WARNING: See https.* for mitigation options.',
                  r'WARNING: kernel not compiled with CPU_SRSO',
                  r'EXT4-[Ff][Ss](?: \(.*\))?:',
                  r'(?i)warning: .* uses (deprecated v2 capabilities|wireless extensions)',
                  r'XFS \(\w+\): WARNING']),
    ('INFO:', [r'INFO: lockdep is turned off', r'INFO: Stall ended before state dump start',
               r'INFO: NMI handler', r'INFO: recovery required on readonly filesystem',
               r'(handler|interrupt).*took too long',
               r'INFO: sys_.* is not present in /proc/kallsyms',
               r'INFO: no syscalls can create resource', r'rmt_storage:INFO:', r'_INFO:']),
    ('Unable to handle kernel', []),
    ('general protection fault', [r'general protection fault .* error:\d+ in ']),
    ('stack segment: ', []),
    ('Kernel panic', []),
    ('PANIC: double fault', []),
    ('rust_kernel: panicked', []),
    ('kernel BUG', []),
    ('Kernel BUG', []),
    ('BUG kmalloc-', []),
    ('divide error:', []),
    ('divide_error:', []),
    ('invalid opcode:', []),
    ('int3:', []),
    ('UBSAN:', []),
    ('Booting the kernel.', []),
    ('unregister_netdevice: waiting for', []),
    ('VFS: Close: file count is 0', []),
    ('VFS: Busy inodes after unmount', []),
    ('Internal error:', []),
    ('Unhandled fault:', []),
    ('Alignment trap:', []),
    ('trusty: panic', []),
    # report.go's common table
    ('SYZFAIL:', []),
    ('SYZFATAL:', []),
    ('panic:', [r'_panic:', r'xlog_status:', r'ddb\.onpanic:', r'evtlog_status:']),
    ('fatal error:', []),
]

KERNEL_SCANNERS = ['WARNING:', 'BUG:', 'Oops', 'general protection fault', 'KASAN:',
                   'KFENCE:', 'Kernel panic']

_SYZ = [(h, [re.compile(s) for s in sup]) for h, sup in SYZKALLER_LINUX]


def crash_header(line):
    """The parser and header that take LINE for the start of a crash, or None."""
    for header, suppressions in _SYZ:
        if header in line and not any(s.search(line) for s in suppressions):
            return f'syzkaller "{header}"'
    for header in KERNEL_SCANNERS:
        if header in line:
            return f'log scanners "{header}"'
    return None
