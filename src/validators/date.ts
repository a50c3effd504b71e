/**
 * Calendar check shared by the identifiers that embed a birth date (CN resident id, PESEL, HETU, KR
 * RRN, codice fiscale, MRZ). Without it a date-shaped field is only a range check, and a third of
 * random 6-digit `YYMMDD` fields would pass; with it `310299` or `000000` are rejected outright.
 *
 * @example
 * isValidDate(2000, 2, 29); // true (leap year)
 * isValidDate(1900, 2, 29); // false
 */
export function isValidDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
