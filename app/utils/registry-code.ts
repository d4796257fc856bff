/**
 * The company ID a workshop gives (docs/decisions/0120): an Estonian registry code (registrikood)
 * of 8 digits whose last is its check digit, or the 10-digit number the specification names.
 * Registration, the administrator's correction, the JSON API, the demo data and the tests all
 * ask this one function.
 */
export function isCompanyId(value: string): boolean {
	if (/^\d{10}$/.test(value)) return true
	return /^\d{8}$/.test(value) && registryCodeCheckDigit(value.slice(0, 7)) === Number(value[7])
}

/**
 * The e-Business Register's modulus-11 check digit of a registry code's first 7 digits: weights
 * 1…7; a remainder of 10 tries again with weights 3…9, and a second 10 gives 0 (the rule of the
 * personal identification code, EVS 585, on seven digits).
 */
export function registryCodeCheckDigit(first7: string): number {
	if (!/^\d{7}$/.test(first7)) throw new Error('A registry code starts with 7 digits')
	const digits = [...first7].map(Number)
	const remainder = (firstWeight: number) => digits.reduce((sum, digit, index) => sum + digit * (((firstWeight - 1 + index) % 9) + 1), 0) % 11
	const first = remainder(1)
	if (first < 10) return first
	const second = remainder(3)
	return second < 10 ? second : 0
}

/** A whole registry code from its first 7 digits (for demo data and tests). */
export const registryCode = (first7: string) => `${first7}${registryCodeCheckDigit(first7)}`
