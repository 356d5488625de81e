#!/usr/bin/env python3
"""prometheus_query.py: ask a Prometheus server's HTTP API, for
tests/host/prometheus.t (standard library only).

  prometheus_query.py [--time T] [--json] URL EXPR
	one instant query (/api/v1/query); prints the result as text:
	a vector one series per line, "label=value,... VALUE" (labels
	sorted, job and __name__ left out; VALUE alone without labels), a
	range vector "labels: T=VALUE T=VALUE ..." (T as Prometheus gives
	it, seconds with milliseconds), a scalar its value; nothing for an
	empty result.  --json prints the API's "data" instead.

  prometheus_query.py --wait SECONDS --want TEXT URL EXPR
	the same query, repeated every 0.2 s until its text (lines joined
	by "; ") is TEXT; prints the last text and exits 1 if it never was
	within SECONDS.

  prometheus_query.py --fetch URL
	GET URL (any HTTP server); prints the body, exits 1 unless 200.

  prometheus_query.py --exact-increase SELECTOR URL
	the increase of a counter over a window across one reset, made
	exact (see exact_increase()).

Exit status: 0 done, 1 a wait ran out or the query failed, 2 usage.
"""
import argparse
import decimal
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def api(url, path, params=None, timeout=10):
    q = '?' + urllib.parse.urlencode(params) if params else ''
    with urllib.request.urlopen(f'{url}{path}{q}', timeout=timeout) as r:
        return r.read()


def query(url, expr, at=None):
    params = {'query': expr}
    if at is not None:
        params['time'] = at
    try:
        doc = json.loads(api(url, '/api/v1/query', params))
    except urllib.error.HTTPError as e:
        # a bad expression: 400 with the error in the body
        doc = json.loads(e.read() or b'{}')
    if doc.get('status') != 'success':
        raise RuntimeError(f"{expr}: {doc.get('errorType')}: {doc.get('error')}")
    return doc['data']


def labels(metric):
    return ','.join(f'{k}={v}' for k, v in sorted(metric.items())
                    if k not in ('job', '__name__'))


def text(data):
    kind, res = data['resultType'], data['result']
    if kind == 'scalar' or kind == 'string':
        return [res[1]]
    if kind == 'vector':
        lines = [(labels(s['metric']) + ' ' + s['value'][1]).strip()
                 for s in res]
    else:
        lines = [labels(s['metric']) + ': ' +
                 ' '.join(f'{t}={v}' for t, v in s['values']) for s in res]
    return sorted(lines)


def ms(t):
    """Prometheus' timestamp (float seconds, ms precision) as integer ms."""
    return int((decimal.Decimal(str(t)) * 1000).to_integral_value())


def exact_increase(url, sel):
    """
    increase() and resets() of the counter SEL (one series) over a window
    that starts at the last sample before its last reset and ends at its
    newest sample, evaluated at that newest sample's time.

    increase() extrapolates: when the window's first or last sample lies
    inside the window rather than on its edge, Prometheus stretches the
    difference towards the edge (by the gap, or by half the average
    sample interval when the gap is larger), so with samples at arbitrary
    scrape times the result is a non-integer near the true increase.
    Prometheus 2.x's range selector [t - r, t] is closed on both sides:
    with t the newest sample's timestamp and r reaching exactly back to an
    older sample's timestamp (both in ms, as Prometheus stores them),
    both edges carry samples, the extrapolation adds nothing, and
    increase() is last - first plus the value before each reset: exact.
    (Prometheus 3 made the left edge open; there, r would need 1 ms more
    and increase() would extrapolate by that 1 ms.)
    """
    raw = query(url, f'{sel}[10m]')
    if raw['resultType'] != 'matrix' or len(raw['result']) != 1:
        raise RuntimeError(f'{sel}[10m]: not one series: {text(raw)}')
    pts = [(ms(t), float(v)) for t, v in raw['result'][0]['values']]
    drops = [i for i in range(1, len(pts)) if pts[i][1] < pts[i - 1][1]]
    if not drops:
        raise RuntimeError(f'{sel}: no reset in {pts}')
    (t0, v0), (t1, v1) = pts[drops[-1] - 1], pts[-1]
    r = t1 - t0
    at = f'{t1 // 1000}.{t1 % 1000:03d}'
    inc = query(url, f'increase({sel}[{r}ms])', at)
    res = query(url, f'resets({sel}[{r}ms])', at)
    out = {
        'before': {'t': t0, 'value': v0}, 'last': {'t': t1, 'value': v1},
        'range_ms': r, 'samples': len([p for p in pts if p[0] >= t0]),
        'increase': text(inc), 'resets': text(res),
        'unaligned': text(query(url, f'increase({sel}[{r + 500}ms])', at)),
    }
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--time')
    ap.add_argument('--json', action='store_true')
    ap.add_argument('--wait', type=float)
    ap.add_argument('--want')
    ap.add_argument('--fetch', action='store_true')
    ap.add_argument('--exact-increase', metavar='SELECTOR')
    ap.add_argument('url')
    ap.add_argument('expr', nargs='?')
    a = ap.parse_args()
    url = a.url.rstrip('/')

    if a.fetch:
        sys.stdout.write(api(a.url, '', timeout=5).decode())
        return 0
    if a.exact_increase:
        print(json.dumps(exact_increase(url, a.exact_increase)))
        return 0
    if a.expr is None:
        ap.error('EXPR needed')
    if a.wait is None:
        data = query(url, a.expr, a.time)
        print(json.dumps(data) if a.json else '\n'.join(text(data)))
        return 0

    end = time.monotonic() + a.wait
    got = ''
    while True:
        try:
            got = '; '.join(text(query(url, a.expr, a.time)))
        except (OSError, RuntimeError, urllib.error.URLError) as e:
            got = f'error: {e}'
        if got == a.want:
            print(got)
            return 0
        if time.monotonic() >= end:
            print(got)
            return 1
        time.sleep(0.2)


if __name__ == '__main__':
    try:
        sys.exit(main())
    except (OSError, RuntimeError, urllib.error.URLError, ValueError) as e:
        print(f'error: {e}')
        sys.exit(1)
