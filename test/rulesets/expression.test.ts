import { describe, expect, it } from 'vitest';
import { compileExpression, ExpressionError, kMaxExpressionLength, type Traffic } from '../../src/rulesets/index.js';

const traffic: Traffic = {
  request: {
    url: 'https://Shop.Example.com:8443/api/v1/users.JSON?page=2&sort=asc',
    method: 'post',
    clientIp: '192.0.2.55',
    country: 'de',
    headers: { 'User-Agent': 'curl/8.0', Cookie: 'sid=abc; theme=dark', 'X-Trace': ['one', 'two'] },
  },
  response: { status: 200, headers: { 'Content-Type': 'Application/JSON; charset=utf-8', 'Set-Cookie': 'a=b' } },
};
const v6: Traffic = { request: { url: '/x', clientIp: '2001:db8::7', headers: { host: 'v6.example' } } };

describe('evaluation (table)', () => {
  const cases: [string, boolean, Traffic?][] = [
    ['true', true],
    ['false', false],
    ['http.host eq "shop.example.com"', true],
    ['http.host == "shop.example.com:8443"', false],
    ['http.request.method eq "POST"', true],
    ['http.request.uri.path eq "/api/v1/users.JSON"', true],
    ['http.request.uri.path.extension eq "json"', true],
    ['http.request.uri.query eq "page=2&sort=asc"', true],
    ['http.request.uri eq "/api/v1/users.JSON?page=2&sort=asc"', true],
    ['http.request.full_uri eq "https://shop.example.com/api/v1/users.JSON?page=2&sort=asc"', true],
    ['http.request.uri.args["page"][0] eq "2"', true],
    ['http.user_agent contains "curl"', true],
    ['http.cookie contains "sid=abc"', true],
    ['http.request.cookies["theme"][0] == "dark"', true],
    ['http.response.code eq 200', true],
    ['http.response.code ne 200', false],
    ['http.response.code in {200..299 304}', true],
    ['http.response.code in {400..599}', false],
    ['http.response.code ge 200 and http.response.code lt 300', true],
    ['http.response.code & 8', true],
    ['http.response.code bitwise_and 1', false],
    ['http.response.content_type.media_type eq "application/json"', true],
    ['http.response.headers["content-type"][0] contains "charset"', true],
    ['any(http.response.headers.names[*] eq "set-cookie")', true],
    ['all(http.request.headers["x-trace"][*] ne "")', true],
    ['any(lower(http.request.headers.values[*]) eq "two")', true],
    ['any(starts_with(http.request.headers.names[*], "x-"))', true],
    ['len(http.request.headers.names) eq 3', true],
    ['len(http.host) eq 16', true],
    ['ip.src eq 192.0.2.55', true],
    ['ip.src in {192.0.2.0/24}', true],
    ['ip.src in {198.51.100.0/24 2001:db8::/32}', false],
    ['ip.src in {192.0.2.50..192.0.2.60}', true],
    ['ip.src in {2001:db8::/32}', true, v6],
    ['ip.src eq 2001:db8:0:0:0:0:0:7', true, v6],
    ['ip.src.country eq "DE"', true],
    ['ssl', true],
    ['not ssl', false],
    ['!ssl or http.host eq "shop.example.com"', true],
    ['http.host in {"a.example" "shop.example.com"}', true],
    ['http.request.uri.path matches "^/api/v[0-9]+/"', true],
    ['http.request.uri.path ~ "users\\\\.json$"', false],
    ['http.request.uri.path wildcard "/API/*/users.json"', true],
    ['http.request.uri.path strict wildcard "/API/*"', false],
    ['http.request.uri.path strict wildcard "/api/*"', true],
    ['http.host wildcard "*.example.com"', true],
    ['http.request.uri.path lt "/b" and http.request.uri.path gt "/a"', true],
    ['upper(http.request.uri.path.extension) eq "JSON"', true],
    ['ends_with(http.request.uri.path, ".JSON")', true],
    ['http.host eq r"shop.example.com"', true],
    ['http.user_agent eq r#"curl/8.0"#', true],
    ['http.host eq "x" or http.host eq "y" or (ssl and http.response.code eq 200)', true],
    ['ssl xor http.response.code eq 200', false],
    ['ssl ^^ http.response.code eq 500', true],
    ['not (ssl && http.response.code == 500)', true],
    ['http.response.code eq 200', false, { request: { url: '/' } }],
    ['ip.src in {192.0.2.0/24}', false, { request: { url: '/' } }],
  ];
  it.each(cases)('%s → %s', (source, expected, t) => {
    expect(compileExpression(source).matches(t ?? traffic)).toBe(expected);
  });

  it('records the fields an expression reads', () => {
    expect([...compileExpression('http.host eq "a" and ip.src in {10.0.0.0/8}').fields].sort()).toEqual(['http.host', 'ip.src']);
  });
});

describe('errors point at the position (table)', () => {
  const cases: [string, number, string][] = [
    ['http.hots eq "x"', 1, 'unknown identifier'],
    ['http.host eq "x" and', 21, 'expected an expression'],
    ['(http.host eq "a"', 18, 'expected ")"'],
    ['ip.src == 1.2.3.0/24', 11, 'a CIDR is only allowed inside in {…}'],
    ['http.host in {"a", "b"}', 18, 'expected a space or "}" between values'],
    ['http.host matches "("', 19, 'invalid regular expression'],
    // RE2, not V8's RegExp: lookaround and backreferences do not exist there.
    ['http.host matches "(?=a)"', 19, 'invalid regular expression'],
    ['http.host matches "(?<=a)b"', 19, 'invalid regular expression'],
    ['http.host matches "(a)\\\\1"', 19, 'invalid regular expression'],
    ['http.host', 1, 'expected an operator'],
    ['http.response.code eq "x"', 23, 'expected an integer'],
    ['http.host eq 1', 14, 'expected a quoted string'],
    ['foo(http.host)', 1, 'unknown function'],
    ['concat(http.host, "a") eq "b"', 1, 'not available in this phase'],
    ['http.host wildcard "a**"', 20, '** is not allowed'],
    ['http.host eq "a\\q"', 16, 'invalid escape'],
    ['http.host eq "abc', 14, 'unterminated string'],
    ['http.request.headers.names[*] eq "a"', 27, 'only allowed inside the first argument'],
    ['lower(http.request.headers.names[*]) eq "a"', 1, 'wrap it in any() or all()'],
    ['ip.src lt 10.0.0.1', 8, 'operator lt is not supported on Ip'],
    ['http.host contains "a" junk', 24, 'unrecognised input'],
    ['http.request.headers eq "a"', 22, 'not supported on Map<Array<Bytes>>'],
    ['ip.src in $bad_ips', 11, 'lists ($name) are not supported'],
    ['"a" eq http.host', 1, 'a literal cannot start a comparison'],
    ['http.host eq "a" and\nhttp.hots eq "b"', 1, 'unknown identifier'],
    ['ip.src in {10.0.0.0/33}', 12, 'invalid CIDR'],
  ];
  it.each(cases)('%s → column %i: %s', (source, column, reason) => {
    let err: unknown;
    try {
      compileExpression(source);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExpressionError);
    const e = err as ExpressionError;
    expect(e.column).toBe(column);
    expect(e.reason).toContain(reason);
    expect(e.message).toMatch(new RegExp(`^Filter parsing error \\(${e.line}:${column}\\):\\n`));
    // The caret line sits under the offending text.
    const lines = e.message.split('\n');
    expect(lines[2]!.indexOf('^')).toBe(column - 1);
  });

  it('reports the line of a multi-line expression', () => {
    expect(() => compileExpression('http.host eq "a" and\nhttp.hots eq "b"')).toThrow(/\(2:1\)/);
  });

  it('refuses expressions over 4,096 characters and deep nesting, accepts up to the limit', () => {
    const long = `http.host eq "${'a'.repeat(kMaxExpressionLength - 15)}"`;
    expect(long.length).toBe(kMaxExpressionLength);
    expect(() => compileExpression(long)).not.toThrow();
    expect(() => compileExpression(`${long} `)).toThrow(/longer than 4096/);
    expect(() => compileExpression(`${'('.repeat(2000)}ssl${')'.repeat(2000)}`)).toThrow(/nested more than/);
    expect(() => compileExpression(`${'not '.repeat(1000)}ssl`)).toThrow(/nested more than/);
    expect(() => compileExpression('   ')).toThrow(/cannot be blank/);
  });
});
