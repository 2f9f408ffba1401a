#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
"""Read back what pexport --to flamegraph wrote, for
tests/export-flamegraph.test and tests/export-flamegraph-browser.test.

  flamegraph.py check HTML FOLDED [--graph N] [--old FOLDED]
        [--minwidth N[%]] [--inverted] [--title TEXT] [--capped]
    Every frame of graph N (default 0) against the folded stacks FOLDED
    (annotated as stackcollapse-perf.pl --all annotates them): its width
    is the sum of the counts of the stacks through it, its self count
    that of the stacks ending in it; siblings in name order; the frames
    left out are exactly those narrower than --minwidth (flamegraph.pl's
    rule, default 0.1 px of a 1200 px image) and the page counts them;
    with --old, the old counts against the old recording's stacks;
    with --capped, the page's size limit must have raised the minimum,
    and the frames are those at least as wide as the minimum it took.
    Prints "FRAMES DROPPED TOTAL".

  flamegraph.py graphs HTML
    Prints each graph's event, unit and total, one a line.

  flamegraph.py find HTML NAME
    Prints the index of the first frame of graph 0 named NAME.

  flamegraph.py quote TEXT
    TEXT escaped for an address's fragment (encodeURIComponent's way).

  flamegraph.py dom HTML DOM --search REGEX | --zoom G:I | --colours
    DOM is what chromium --dump-dom printed for HTML#search=REGEX or
    HTML#zoom=G:I: the document's title must give the matched share
    computed here from the data (flamegraph.pl's rule: frames under a
    matched frame are not counted again), and a zoomed frame must be as
    wide as the graph, with each frame under it scaled by the same
    factor and no frame outside it drawn.  Each frame's colour is
    flamegraph.pl's: --hash's hot palette for user code, orange for the
    kernel, green for JIT code, aqua for inlined functions; in a
    differential graph red or blue by the frame's own normalised delta.
"""
import html.parser
import json
import re
import sys
import urllib.parse

ANNOT = {'_[k]': 'k', '_[j]': 'j', '_[i]': 'i'}
IMAGE, PAD = 1200, 10


def die(msg):
    sys.stderr.write('flamegraph.py: %s\n' % msg)
    sys.exit(1)


def page_data(path):
    text = open(path, encoding='utf-8', errors='surrogateescape').read()
    m = re.search(r'<script type="application/json" id="flamedata">(.*?)'
                  r'</script>', text, re.S)
    if not m:
        die('%s: no flamedata script element' % path)
    if '<' in m.group(1):
        die('%s: a raw "<" in the data' % path)
    return json.loads(m.group(1))


def frame(name):
    for suffix, kind in ANNOT.items():
        if name.endswith(suffix):
            return (name[:-len(suffix)], kind)
    return (name, 'u')


def folded(path):
    """path tuple -> [value, self]; the root is ()."""
    tree = {(): [0, 0]}
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        stack, count = line.rstrip('\n').rsplit(' ', 1)
        count = int(count)
        path = ()
        tree[path][0] += count
        for name in stack.split(';'):
            path = path + (frame(name),)
            tree.setdefault(path, [0, 0])[0] += count
        tree[path][1] += count
    return tree


def paths(g):
    """The path of each frame of a graph, from its depth-first arrays."""
    out, stack = [], []
    for i, d in enumerate(g['depth']):
        if len(stack) < d - 1 or (i == 0) != (d == 0):
            die('frame %d: depth %d after depth %d' % (i, d, len(stack)))
        del stack[max(d - 1, 0):]
        if d:
            n = g['name'][i]
            stack.append((g['names'][n], g['kinds'][n]))
        out.append(tuple(stack))
    return out


def threshold(minwidth, total):
    if minwidth.endswith('%'):
        return total * float(minwidth[:-1]) / 100
    return float(minwidth) * total / (IMAGE - 2 * PAD)


def check_frames(g, ps, want, old):
    for i, p in enumerate(ps):
        w = want.get(p)
        if w is None or g['value'][i] != w[0]:
            die('frame %s: %d, the stacks say %s' %
                (';'.join(n for n, _ in p), g['value'][i], w))
        if old is None:
            continue
        o = old.get(p, [0, 0])
        got = (g['self'][i], g['old'][i], g['old_self'][i])
        if got != (w[1], o[0], o[1]):
            die('frame %s: self, old, old self %s, the stacks say %s' %
                (';'.join(n for n, _ in p), got, (w[1], o[0], o[1])))


def check_order(g, ps):
    last = {}
    for p in ps[1:]:
        key = (p[-1][0].encode('utf-8', 'surrogateescape'),
               'ukji'.index(p[-1][1]))
        if p[:-1] in last and last[p[:-1]] >= key:
            die('frame %s: not in name order' % ';'.join(n for n, _ in p))
        last[p[:-1]] = key
        last.pop(p, None)


def check_dropped(g, ps, want, minwidth, capped):
    total = want[()][0]
    thr = threshold(minwidth, total)
    if g['capped'] != capped:
        die('capped is %s' % g['capped'])
    if capped:
        # the page's size limit raised the minimum: the frames are those
        # at least as wide as the minimum it took
        if not g['min'] > thr:
            die('capped at min %r, not above --minwidth\'s %r' % (g['min'], thr))
        thr = g['min']
    elif abs(g['min'] - thr) > 1e-9 * max(thr, 1):
        die('min %r, flamegraph.pl says %r' % (g['min'], thr))
    kept = set(ps)
    if len(kept) != len(ps):
        die('a frame is written twice')
    dropped = value = 0
    for p, (v, _) in want.items():
        if not p or v == 0:
            continue
        if (v >= thr) != (p in kept):
            die('frame %s (%d, minimum %g): %s' %
                (';'.join(n for n, _ in p), v, thr,
                 'missing' if v >= thr else 'not dropped'))
        if v < thr:
            dropped += 1
            if len(p) == 1 or want[p[:-1]][0] >= thr:
                value += v
    if (g['dropped'], g['dropped_value']) != (dropped, value):
        die('dropped %d frames (%d), flamegraph.pl drops %d (%d)' %
            (g['dropped'], g['dropped_value'], dropped, value))
    return dropped


def check(argv):
    args = {'--graph': '0', '--minwidth': '0.1'}
    flags = set()
    files = []
    it = iter(argv)
    for a in it:
        if a in ('--graph', '--old', '--minwidth', '--title'):
            args[a] = next(it)
        elif a.startswith('--'):
            flags.add(a)
        else:
            files.append(a)
    data = page_data(files[0])
    want = folded(files[1])
    old = folded(args['--old']) if '--old' in args else None
    if data['inverted'] != ('--inverted' in flags):
        die('inverted is %s' % data['inverted'])
    if data['diff'] != (old is not None):
        die('diff is %s' % data['diff'])
    if '--title' in args and data['title'] != args['--title']:
        die('title %r, not %r' % (data['title'], args['--title']))
    g = data['graphs'][int(args['--graph'])]
    if g['total'] != want[()][0] or g['value'][0] != g['total']:
        die('total %d, root %d, the stacks %d' %
            (g['total'], g['value'][0], want[()][0]))
    if old is not None and g['old_total'] != old[()][0]:
        die('old total %d, the old stacks %d' % (g['old_total'], old[()][0]))
    if not len(g['kinds']) == len(g['names']):
        die('names and kinds differ in number')
    for col in ('name', 'value') + (('self', 'old', 'old_self') if old else ()):
        if len(g[col]) != len(g['depth']):
            die('column %s has %d frames, not %d' %
                (col, len(g[col]), len(g['depth'])))
    ps = paths(g)
    check_frames(g, ps, want, old)
    check_order(g, ps)
    dropped = check_dropped(g, ps, want, args['--minwidth'],
                            '--capped' in flags)
    print(len(ps), dropped, g['total'])


class Frames(html.parser.HTMLParser):
    """The drawn frames of a dumped DOM: graph, index -> (class, width)."""

    def __init__(self):
        super().__init__()
        self.graph = -1
        self.cur = None
        self.frames = {}
        self.title = None
        self.in_title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'svg':
            self.graph += 1
        elif tag == 'g' and 'data-i' in a:
            self.cur = (self.graph, int(a['data-i']), a.get('class', ''))
        elif tag == 'rect' and self.cur:
            g, i, cls = self.cur
            self.frames[(g, i)] = (cls, float(a['width']), a['fill'])
            self.cur = None
        elif tag == 'title' and self.title is None:
            self.in_title = True

    def handle_data(self, data):
        if self.in_title:
            self.title = data
            self.in_title = False


def matched(g, regex, z=0):
    """flamegraph.pl's share: matched frames, none under another."""
    ps = paths(g)
    end = z + 1
    while end < len(ps) and g['depth'][end] > g['depth'][z]:
        end += 1
    total, covered = 0, None
    for i in range(z, end):
        if covered and ps[i][:len(covered)] == covered:
            continue
        if i and re.search(regex, ps[i][-1][0]):
            total += g['value'][i]
            covered = ps[i]
    v = 100 * total / g['value'][z]
    return '100' if v == 100 else '%.1f' % v


def namehash(s):
    """flamegraph.pl's namehash(): the first three characters."""
    s = re.sub(r'.(.*?)`', '', s, count=1)
    v, w, top, mod = 0, 1, 1, 10
    for c in s[:3]:
        v += (ord(c) % mod) / (mod - 1) * w
        top += w
        w *= 0.7
        mod += 1
    return 1 - v / top


def rgb(r, g, b):
    return 'rgb(%d,%d,%d)' % (int(r), int(g), int(b))


def colour(data, g, i):
    if data['diff']:
        m = max([1] + [abs(delta(g, j)) for j in range(len(g['value']))])
        d = delta(g, i)
        if d > 0:
            return rgb(255, 210 * (m - d) / m, 210 * (m - d) / m)
        if d < 0:
            return rgb(210 * (m + d) / m, 210 * (m + d) / m, 255)
        return rgb(255, 255, 255)
    kind = g['kinds'][g['name'][i]]
    a = g['names'][g['name'][i]] + {'u': '', 'k': '_[k]', 'j': '_[j]',
                                    'i': '_[i]'}[kind] if i else ''
    v1, v2 = namehash(a), namehash(a[::-1])
    if kind == 'k':
        return rgb(190 + 65 * v1, 90 + 65 * v1, 0)
    if kind == 'j':
        return rgb(50 + 60 * v1, 200 + 55 * v1, 50 + 60 * v1)
    if kind == 'i':
        return rgb(50 + 60 * v1, 165 + 55 * v1, 165 + 55 * v1)
    return rgb(205 + int(50 * v2), 230 * v1, 55 * v2)


def delta(g, i):
    scale = g['total'] / g['old_total'] if g['old_total'] else 0
    return g['self'][i] - g['old_self'][i] * scale


def check_colours(data, frames):
    for (gi, i), (_, _, fill) in frames.items():
        want = colour(data, data['graphs'][gi], i)
        if fill not in (want, 'rgb(230,0,230)'):
            die('frame %d:%d: colour %s, flamegraph.pl gives %s' %
                (gi, i, fill, want))


def dom(argv):
    data = page_data(argv[0])
    p = Frames()
    p.feed(open(argv[1], encoding='utf-8', errors='replace').read())
    if not p.frames:
        die('%s: no frame drawn' % argv[1])
    check_colours(data, p.frames)
    if argv[2] == '--colours':
        print(p.title)
        return
    if argv[2] == '--search':
        want = ' | '.join([data['title']] + ['matched %s%%' %
                          matched(g, argv[3]) for g in data['graphs']])
        if p.title != want:
            die('title %r, the data say %r' % (p.title, want))
        print(p.title)
        return
    gi, z = (int(v) for v in argv[3].split(':'))
    g = data['graphs'][gi]
    ps = paths(g)
    full = IMAGE - 2 * PAD
    for i, pth in enumerate(ps):
        drawn = p.frames.get((gi, i))
        under = pth[:len(ps[z])] == ps[z] and len(pth) >= len(ps[z])
        above = len(pth) < len(ps[z]) and ps[z][:len(pth)] == pth
        if not (under or above):
            if drawn:
                die('frame %d is drawn outside the zoomed frame %d' % (i, z))
            continue
        if not drawn:
            die('frame %d is not drawn' % i)
        width = full if above else g['value'][i] * full / g['value'][z]
        if abs(drawn[1] - round(width, 1)) > 0.051:
            die('frame %d: width %.1f, not %.1f' % (i, drawn[1], width))
        if above != ('p' in drawn[0].split()):
            die('frame %d: class %r' % (i, drawn[0]))
    if p.frames[(gi, z)][1] != float(full):
        die('the zoomed frame is %.1f wide' % p.frames[(gi, z)][1])
    if ('zoom %d:%d' % (gi, z)) not in p.title:
        die('title %r' % p.title)
    print(p.title)


def find(argv):
    g = page_data(argv[0])['graphs'][0]
    for i in range(1, len(g['name'])):
        if g['names'][g['name'][i]] == argv[1]:
            print(i)
            return
    die('no frame %s' % argv[1])


def graphs(argv):
    for g in page_data(argv[0])['graphs']:
        print(g['event'], g['unit'], g['total'])


COMMANDS = {
    'check': check, 'dom': dom, 'find': find, 'graphs': graphs,
    'quote': lambda a: print(urllib.parse.quote(a[0], safe='')),
}


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in COMMANDS:
        die('usage: flamegraph.py check|graphs|dom ...')
    COMMANDS[sys.argv[1]](sys.argv[2:])


if __name__ == '__main__':
    main()
