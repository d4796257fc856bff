import { describe, expect, test } from 'vitest'
import { RegisterSchema } from '~/domain/accounts/accounts'
import { CompanyFieldsSchema } from '~/domain/admin/admin'
import { isCompanyId, registryCode, registryCodeCheckDigit } from '~/utils/registry-code'
import { companyId } from '~/utils/validation'

// 8-digit registry codes whose last digit is the right check digit (10060701 is Swedbank AS's).
const REAL = ['10060701', '10137319', '10421629', '12345678', '16000002']

describe('a workshop’s company ID (decision 0120)', () => {
	test('an 8-digit Estonian registry code with its check digit is accepted', () => {
		for (const code of REAL) expect(isCompanyId(code), code).toBe(true)
	})

	test('the check digit: weights 1…7, then 3…9 when the first remainder is 10, and 0 when that is 10 too', () => {
		// 1·1 + 0·2 + 1·3 + 3·4 + 7·5 + 3·6 + 1·7 = 76, 76 mod 11 = 10; 1·3 + 0·4 + 1·5 + 3·6 + 7·7 + 3·8 + 1·9 = 108, mod 11 = 9.
		expect(registryCodeCheckDigit('1013731')).toBe(9)
		// 1·1 + 2·2 + … + 7·7 = 140, mod 11 = 8: the first pass.
		expect(registryCodeCheckDigit('1234567')).toBe(8)
		// Both passes give 10: the check digit is 0.
		expect(registryCodeCheckDigit('1000064')).toBe(0)
		expect(isCompanyId('10000640')).toBe(true)
		expect(registryCode('1600000')).toBe('16000002')
	})

	test('a wrong check digit is refused', () => {
		for (const code of REAL) {
			const wrong = `${code.slice(0, 7)}${(Number(code[7]) + 1) % 10}`
			expect(isCompanyId(wrong), wrong).toBe(false)
		}
		expect(isCompanyId('16000001')).toBe(false)
	})

	test('the 10-digit number of the specification is still accepted; every other shape is refused', () => {
		expect(isCompanyId('1234567890')).toBe(true)
		for (const bad of ['', '1013731', '101373199', '12345678901', '1013 7319', 'abcdefgh', '１０１３７３１９', '10137319\n']) {
			expect(isCompanyId(bad), JSON.stringify(bad)).toBe(false)
		}
	})

	test('registration and the administrator’s correction answer with the one message that names both forms', () => {
		expect(companyId().safeParse(' 10137319 ').data).toBe('10137319')
		expect(companyId().safeParse('10137318').error?.issues[0]?.message).toBe('validation.companyId')
		expect(CompanyFieldsSchema.safeParse({ companyName: 'Kask OÜ', companyId: '10137318' }).error?.issues[0]?.message).toBe('validation.companyId')
		expect(CompanyFieldsSchema.safeParse({ companyName: 'Kask OÜ', companyId: '10137319' }).success).toBe(true)
		const workshop = {
			role: 'workshop',
			firstName: 'Peeter',
			lastName: 'Pihlakas',
			email: 'peeter@example.com',
			mobile: '+372 5999 1234',
			password: 'garaaz-123',
			confirmPassword: 'garaaz-123',
			companyName: 'Rapla Rehv OÜ',
			workshopName: 'Rapla Rehv',
		}
		expect(RegisterSchema.safeParse({ ...workshop, companyId: '10137319' }).success).toBe(true)
		expect(RegisterSchema.safeParse({ ...workshop, companyId: '1234567890' }).success).toBe(true)
		expect(RegisterSchema.safeParse({ ...workshop, companyId: '10137310' }).error?.issues.map((issue) => issue.message)).toEqual(['validation.companyId'])
	})
})

describe('passwords are never cut (decision 0121)', () => {
	const person = { role: 'customer', firstName: 'Tiina', lastName: 'Tee', email: 'tiina@example.com', mobile: '+372 5000 1234' }
	test('12 characters are a password; 13 or 17 are refused as too long, whole', () => {
		expect(RegisterSchema.safeParse({ ...person, password: 'twelve-chars', confirmPassword: 'twelve-chars' }).success).toBe(true)
		for (const long of ['thirteen-char', 'seventeen-chars!!']) {
			const issues = RegisterSchema.safeParse({ ...person, password: long, confirmPassword: long }).error?.issues
			expect(issues?.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['password', 'validation.passwordTooLong']])
		}
	})
})
