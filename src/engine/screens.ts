/**
 * Screens: engine tuning with no effect on results, on the native RE2 backend. The rules of one screen are first tried together,
 * one alternation of their patterns over a region of up to 16 KB, and a rule runs its own pattern only
 * where the alternation matched near its candidates (src/engine/matcher.ts). That is worth it for
 * rules that numbers wake everywhere (order ids, timestamps, trace ids in every log line) while their
 * patterns almost never match there: on the bench's 1 MB log the card brands cost 7 pattern calls per
 * group of long numbers, their alternation one call per 16 KB.
 *
 * Members are chosen by measurement, not by meaning. An alternation is one RE2 automaton: too many or
 * too different patterns overflow its cache and it gets slower than the calls it replaces (all of
 * these together ran 10–60× slower on the log and JSON bodies than the groups below; IBAN's
 * per-country alternation makes any screen it joins 4× slower, so it has none). `npm run bench`
 * measures the result; a rule left out of every screen just runs on its own as before.
 */
export const kScreens: Readonly<Record<string, readonly string[]>> = {
  card: ['card-visa', 'card-mastercard', 'card-amex', 'card-discover', 'card-jcb', 'card-diners', 'card-unionpay', 'card-maestro'],
  // Ids that start or end with letters or a letter check character.
  'lettered-id': ['fi-hetu', 'es-nie', 'uk-nino', 'hk-hkid', 'it-codice-fiscale'],
  // Numeric ids with a fixed structure (a prefix, a date, fixed groups).
  'structured-id': ['ch-ahv', 'kr-rrn', 'fr-nir', 'es-dni', 'br-cpf', 'us-ssn', 'us-itin', 'in-aadhaar', 'cn-resident-id'],
  // Secrets found by their label (`secret_key=`, `Authorization: Basic`): a page that names them
  // without values (docs, forms, adv/kw-all) woke each rule's window at every label; the alternation
  // made adv/kw-all 1.4× faster and dense bodies, where the labels hold values, 3-6% slower.
  'secret-label': ['generic-secret', 'aws-secret-access-key', 'azure-storage-account-key', 'cloudflare-api-key', 'cloudflare-global-api-key', 'http-basic-auth'],
};

const kScreenOf = new Map(Object.entries(kScreens).flatMap(([name, ids]) => ids.map((id) => [id, name] as const)));

/** The screen a rule belongs to, if any. */
export function screenOf(ruleId: string): string | undefined {
  return kScreenOf.get(ruleId);
}
