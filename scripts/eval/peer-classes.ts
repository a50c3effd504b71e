/**
 * Which peer-case class each managed rule answers for (see scripts/eval/peer.ts). The class names are the
 * peers' (`peer-cases.jsonl`, outside the repository); the map is ours. A rule maps to at most one
 * class; several rules may share one. Rules with no matching class are listed in `kUnmappedRules` with
 * the reason, so a new rule has to be placed in one list or the other (test/eval/peer.test.ts).
 */

/** Rule id → peer class. */
export const kRuleClass: Readonly<Record<string, string>> = {
  // Personal identifiers
  'us-ssn': 'us_ssn',
  'us-itin': 'us_itin',
  'us-passport': 'us_passport',
  'uk-nino': 'uk_nino',
  'uk-nhs': 'uk_nhs',
  'br-cpf': 'br_cpf',
  'br-cpf-unformatted': 'br_cpf',
  // The peers' NIF cases are the DNI form (8 digits + letter); NIE has its own class.
  'es-dni': 'es_nif',
  'es-nie': 'es_nie',
  'it-codice-fiscale': 'it_fiscal_code',
  'de-passport': 'de_passport',
  'pl-pesel': 'pl_pesel',
  'fi-hetu': 'fi_hetu',
  'nl-bsn': 'nl_bsn',
  'in-aadhaar': 'in_aadhaar',
  'in-aadhaar-unformatted': 'in_aadhaar',
  'in-pan': 'in_pan',
  'cn-resident-id': 'cn_resident_id',
  'kr-rrn': 'kr_rrn',
  'sg-nric': 'sg_nric_fin',
  'au-tfn': 'au_tfn',
  'au-medicare': 'au_medicare',
  // The peers' MRZ class holds TD1, TD2 and TD3 zones alike.
  'passport-mrz': 'passport_mrz',
  'id-card-mrz': 'passport_mrz',
  'email-address': 'email',
  'phone-number': 'phone',
  'us-phone': 'phone',
  // Financial
  'card-visa': 'credit_card',
  'card-mastercard': 'credit_card',
  'card-amex': 'credit_card',
  'card-discover': 'credit_card',
  'card-jcb': 'credit_card',
  'card-diners': 'credit_card',
  'card-unionpay': 'credit_card',
  'card-maestro': 'credit_card',
  // Track data reports the track around a Luhn-checked PAN, so its span holds the card number.
  'card-track-data': 'credit_card',
  iban: 'iban',
  'us-aba-routing': 'aba_routing',
  'us-bank-account': 'us_bank_account',
  // Secrets
  'aws-access-key-id': 'aws_access_key',
  'aws-secret-access-key': 'aws_secret_key',
  'gcp-api-key': 'gcp_api_key',
  'azure-storage-account-key': 'azure_storage_key',
  'azure-ad-client-secret': 'azure_ad_client_secret',
  // The peers' one Cloudflare class covers global keys, API tokens and Origin CA keys.
  'cloudflare-api-token': 'cloudflare_api_key',
  'cloudflare-api-key': 'cloudflare_api_key',
  'cloudflare-global-api-key': 'cloudflare_api_key',
  'cloudflare-origin-ca-key': 'cloudflare_api_key',
  'github-pat': 'github_token',
  'github-oauth': 'github_token',
  'github-app-token': 'github_token',
  'github-refresh-token': 'github_token',
  'github-fine-grained-pat': 'github_token',
  'gitlab-token': 'gitlab_token',
  'slack-token': 'slack_token',
  'slack-webhook': 'slack_webhook',
  'stripe-secret-key': 'stripe_key',
  'stripe-test-secret-key': 'stripe_key',
  // The peers' Twilio class holds account SIDs and API key SIDs with their tokens.
  'twilio-api-key': 'twilio_key',
  'twilio-auth-token': 'twilio_key',
  'sendgrid-api-key': 'sendgrid_key',
  'npm-token': 'npm_token',
  'pypi-token': 'pypi_token',
  'mailchimp-api-key': 'mailchimp_key',
  'telegram-bot-token': 'telegram_bot_token',
  'openai-api-key': 'openai_api_key',
  'anthropic-api-key': 'anthropic_api_key',
  jwt: 'jwt',
  'jwt-unsigned': 'jwt',
  'private-key': 'private_key',
  // detect-secrets' basic-auth class is credentials in a URL; gitleaks' is `curl -u user:password`.
  'url-credentials': 'basic_auth',
  'http-basic-auth': 'basic_auth',
  'cli-credentials': 'basic_auth',
  // Tokens in Authorization (Bearer, Token, Api-Token) and API-key headers.
  'http-bearer-token': 'auth_header_token',
  'http-auth-token': 'auth_header_token',
  // gitleaks' generic-api-key keys on secret, password, token, key and credential names alike.
  'generic-secret': 'generic_api_key',
  'generic-api-key': 'generic_api_key',
  'vault-token': 'vault_token',
  'vault-token-legacy': 'vault_token',
  'heroku-api-key': 'heroku_api_key',
  'heroku-api-key-legacy': 'heroku_api_key',
  'discord-token': 'discord_token',
  'artifactory-token': 'artifactory_token',
};

/** Rules with no class among the peer cases, and why. */
export const kUnmappedRules: Readonly<Record<string, string>> = {
  'uk-passport': 'no UK passport class',
  'ca-sin': 'no Canadian SIN class',
  'mx-curp': 'no CURP class',
  'fr-nir': 'no French NIR class',
  'se-personnummer': 'no Swedish personnummer class',
  'no-fodselsnummer': 'no Norwegian fødselsnummer class',
  'ch-ahv': 'no Swiss AHV class',
  'hk-hkid': 'no HKID class',
  'tw-national-id': 'no Taiwan ID class',
  'swift-bic': 'no SWIFT/BIC class',
  'gcp-service-account': 'reports a key file\'s private_key_id, not a PEM block or API key',
  'gcp-oauth-client-secret': 'no Google OAuth client secret class',
  'azure-sas-signature': 'a SAS signature is not a storage account key',
  'digitalocean-token': 'no DigitalOcean class',
  'shopify-token': 'no Shopify class',
  'postman-api-key': 'no Postman class',
  'huggingface-token': 'no Hugging Face class',
  'groq-api-key': 'no Groq class',
  'google-oauth-access-token': 'no Google OAuth access token class',
  'square-token': 'no Square class',
  'square-access-token': 'no Square class',
};
