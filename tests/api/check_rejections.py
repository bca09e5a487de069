#!/usr/bin/env python3
"""Every public call and every message ID has a C test.

The public calls are the native API's XS_API functions
(include/xs12/xs12.h, xs12_rt.h), the exported D3D12 entry points
(XS_D3D12_EXPORT ... WINAPI in src/d3d12) and the methods of the vtables
src/d3d12 fills (`.Method = function` in each `...Vtbl name = {` block).
Each must be called by name in some C file under tests/ (`name(`, or
`_Method(` for the COBJMACROS of a method). Each message of
include/xs12/xs12_messages.def must be named by some C test, as
XS12_MESSAGE_ID_<NAME> (the D3D12 debug layer) or XS_MSG_<NAME> (the native
API's xs_api_last_message), unless it is listed below with the reason no
test can raise it. A listed exception that a test does raise fails too, so
the list never goes stale. The inventory tests/api/rejections.md must name
every XS_API function and every exported entry point.

A new call or message without a test fails this check: write the test.

usage: tests/api/check_rejections.py SOURCE_ROOT
"""
import glob
import os
import re
import sys

# Messages no C test raises, and why. Keep each reason checkable.
MESSAGE_EXCEPTIONS = {
    'RUNTIME': 'raised only when the host runs out of memory or a file cannot be '
               'read or written inside a call; the fault-injection tests (host '
               'allocation failure at every site) are where it is reached',
}

# Vtable members that are not methods.
NOT_METHODS = {'Base'}


def read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1]
    inc = os.path.join(root, 'include', 'xs12')
    tests = sorted(glob.glob(os.path.join(root, 'tests', '**', '*.c'), recursive=True))
    if not tests:
        print('no C tests under tests/', file=sys.stderr)
        return 1
    text = '\n'.join(read(t) for t in tests)
    problems = []

    # the native API
    api = []
    for h in ('xs12.h', 'xs12_rt.h'):
        path = os.path.join(inc, h)
        if os.path.exists(path):
            api += re.findall(r'^XS_API\b[^(;]*?\b(xs_\w+)\s*\(', read(path), re.M)
    if len(api) < 20:
        problems.append('found only %d XS_API functions: is the header parsed?' % len(api))
    for f in api:
        if not re.search(r'\b%s\s*\(' % re.escape(f), text):
            problems.append('XS_API %s: no C test calls it' % f)

    # exported D3D12 entry points
    exports = []
    methods = {}
    for src in sorted(glob.glob(os.path.join(root, 'src', 'd3d12', '*.c'))):
        s = read(src)
        exports += re.findall(r'^XS_D3D12_EXPORT\b[^(;]*?\bWINAPI\s+(\w+)\s*\(', s, re.M)
        for m in re.finditer(r'\b(I\w+?)Vtbl\s+\w+\s*=\s*\{(.*?)\n\};', s, re.S):
            for name in re.findall(r'\.(\w+)\s*=', m.group(2)):
                if name not in NOT_METHODS:
                    methods.setdefault(name, set()).add(m.group(1))
    if len(exports) < 5 or len(methods) < 50:
        problems.append('found only %d exports and %d methods: is src/d3d12 parsed?' % (len(exports), len(methods)))
    for f in exports:
        if not re.search(r'\b%s\s*\(' % re.escape(f), text):
            problems.append('exported %s: no C test calls it' % f)
    for name, ifaces in sorted(methods.items()):
        if not re.search(r'_%s\s*\(' % re.escape(name), text):
            problems.append('method %s (%s): no C test calls it' % (name, ', '.join(sorted(ifaces))))

    # messages
    names = re.findall(r'^XS_MSG\((\w+),', read(os.path.join(inc, 'xs12_messages.def')), re.M)
    if len(names) < 50:
        problems.append('found only %d messages: is xs12_messages.def parsed?' % len(names))
    for n in names:
        tested = re.search(r'\b(XS12_MESSAGE_ID_|XS_MSG_)%s\b' % n, text)
        if n in MESSAGE_EXCEPTIONS:
            if tested:
                problems.append('message %s is listed as untestable but a test names it: drop the exception' % n)
        elif not tested:
            problems.append('message %s: no C test raises it (name it as XS12_MESSAGE_ID_%s or XS_MSG_%s)' % (n, n, n))
    for n in MESSAGE_EXCEPTIONS:
        if n not in names:
            problems.append('exception %s names no message' % n)

    # the inventory
    inv_path = os.path.join(root, 'tests', 'api', 'rejections.md')
    inv = read(inv_path) if os.path.exists(inv_path) else ''
    for f in api + exports:
        if not re.search(r'\b%s\b' % re.escape(f), inv):
            problems.append('tests/api/rejections.md does not list %s' % f)

    for p in problems:
        print(p)
    print('%d XS_API functions, %d exports, %d methods, %d messages (%d excepted): %s'
          % (len(api), len(exports), len(methods), len(names), len(MESSAGE_EXCEPTIONS),
             'ok' if not problems else '%d problems' % len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
