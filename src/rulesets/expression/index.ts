/**
 * The Rules language (wirefilter syntax) for filter expressions of the response phase: parsed,
 * type-checked and compiled once into closures, evaluated per request. `matches` runs on RE2.
 * @example
 * import { compileExpression } from './expression/index.js';
 * const expr = compileExpression('http.host eq "example.com" and not ip.src in {192.0.2.0/24}');
 * expr.matches({ request: { url: 'https://example.com/', clientIp: '198.51.100.7' } }); // true
 */
export { compileExpression, ExpressionError, kMaxExpressionLength, kMaxNesting, type CompiledExpression } from './compiler.js';
export { kFields, TrafficView, typeName, type Traffic, type HeaderValues, type ValueType, type FieldDef } from './fields.js';
