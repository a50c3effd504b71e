/**
 * Taiwan national identification number: a letter for the place of first registration, a gender digit
 * (1, 2; 8, 9 for the residence certificates of foreigners since 2021) and eight digits, the last a
 * check digit. The letter maps to 10-35 in the registry's own order (I, O, W… are out of sequence);
 * its tens digit counts once, its units digit nine times, then the digits weigh 8 7 6 5 4 3 2 1 1 and
 * the total must be a multiple of 10.
 *
 * @example
 * twNationalIdValid('F228374654'); // true
 * twNationalIdValid('F228374655'); // false
 */
export function twNationalIdValid(value: string): boolean {
  if (!/^[A-Z][1289][0-9]{8}$/.test(value)) return false;
  const n = kLetterValues.indexOf(value[0]!) + 10;
  let sum = Math.floor(n / 10) + (n % 10) * 9;
  for (let i = 1; i < 10; i++) sum += (value.charCodeAt(i) - 48) * (i === 9 ? 1 : 9 - i);
  return sum % 10 === 0;
}

// Letters in the order of their values 10, 11, … 35.
const kLetterValues = 'ABCDEFGHJKLMNPQRSTUVXYWZIO';
