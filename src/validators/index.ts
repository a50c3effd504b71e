/**
 * Checksums and structural checks, one pure function per file (valid + off-by-one vectors in
 * test/validators). Rules import the files directly; this index is the public catalogue.
 */
export { abaValid } from './aba.js';
export { auAbnValid } from './au-abn.js';
export { auAcnValid } from './au-acn.js';
export { auMedicareValid } from './au-medicare.js';
export { auTfnValid } from './au-tfn.js';
export { decodeBasicAuth, basicAuthCredentialsValid } from './basic-auth.js';
export { base58Decode, btcBase58AddressValid, sha256 } from './base58check.js';
export { bech32Checksum, btcSegwitAddressValid } from './bech32.js';
export { brCnpjValid } from './br-cnpj.js';
export { brCpfValid } from './br-cpf.js';
export { chAhvValid } from './ch-ahv.js';
export { cnResidentIdValid } from './cn-resident-id.js';
export { crc32 } from './crc32.js';
export { isValidDate } from './date.js';
export { shannonEntropy } from './entropy.js';
export { esNifValid } from './es-nif.js';
export { fiHetuValid } from './fi-hetu.js';
export { frNirValid } from './fr-nir.js';
export { githubTokenChecksumValid } from './github-token.js';
export { hkHkidValid } from './hk-hkid.js';
export { ibanValid, kIbanBbanFormats, ibanLength } from './iban.js';
export { icaoCheckDigit } from './icao9303.js';
export { iso7064Mod11_2Valid } from './iso7064-mod11-2.js';
export { itCodiceFiscaleValid } from './it-codice-fiscale.js';
export { ipv4Octets, ipv4Public, ipv4Valid, ipv6Valid } from './ip.js';
export { jwtValid, jwtAlg, jwtClaims, decodeJwtJson } from './jwt.js';
export { krRrnValid } from './kr-rrn.js';
export { luhnValid } from './luhn.js';
export { mrzTd3Valid, mrzTd3Line2Valid, mrzTd2Valid, mrzTd1Valid } from './mrz.js';
export { mxCurpValid } from './mx-curp.js';
export { nlBsnValid } from './nl-bsn.js';
export { noFodselsnummerValid } from './no-fodselsnummer.js';
export { pemPrivateKeyValid } from './pem.js';
export { plPeselValid } from './pl-pesel.js';
export { sePersonnummerValid } from './se-personnummer.js';
export { sgNricValid } from './sg-nric.js';
export { thNationalIdValid } from './th-national-id.js';
export { twNationalIdValid } from './tw-national-id.js';
export { ukNhsValid } from './uk-nhs.js';
export { ukNinoValid } from './uk-nino.js';
export { usSsnValid } from './us-ssn.js';
export { verhoeffValid } from './verhoeff.js';
