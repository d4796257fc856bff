import { parseWithZod } from '@conform-to/zod/v4'
import * as z from 'zod/mini'
import { describe, expect, test } from 'vitest'
import { ReviewSchema } from '~/domain/service-flow/reviews'
import { companyId, emailAddress, isRealDateTime, localDateTime, mobileNumber, nameText, optionalText, password, requiredText, searchText, websiteUrl } from '~/utils/validation'

const schema = z.object({
	name: nameText(),
	email: emailAddress(),
	password: password(),
	companyId: companyId(),
	mobile: mobileNumber(),
	website: z.optional(websiteUrl()),
})

function errorsOf(values: Record<string, string>) {
	const form = new FormData()
	for (const [key, value] of Object.entries(values)) form.set(key, value)
	const submission = parseWithZod(form, { schema })
	return submission.status === 'success' ? {} : submission.reply().error
}

describe('the shared field rules', () => {
	test('answer with translation keys, one schema for every language', () => {
		expect(errorsOf({})).toMatchObject({
			name: ['validation.required'],
			email: ['validation.required'],
			password: ['validation.required'],
			companyId: ['validation.required'],
			mobile: ['validation.required'],
		})
	})

	test('follow spec §5', () => {
		const errors = errorsOf({ name: 'Al', email: 'not-an-email', password: '1234567', companyId: '12345', mobile: 'call me', website: 'ftp://x' })
		expect(errors).toEqual({
			name: ['validation.min3'],
			email: ['validation.email'],
			password: ['validation.password'],
			companyId: ['validation.companyId'],
			mobile: ['validation.mobile'],
			website: ['validation.url'],
		})
		// Too long is its own message, never a cut (decision 0121).
		expect(errorsOf({ name: 'Mari', email: 'a@b.ee', password: '1234567890123', companyId: '1234567890', mobile: '+372 5123 4567' })).toEqual({
			password: ['validation.passwordTooLong'],
		})
	})

	test('accept good input, trimmed and with the e-mail in lower case', () => {
		const form = new FormData()
		form.set('name', '  Mari  ')
		form.set('email', ' Mari.Tamm@Example.COM ')
		form.set('password', 'demo12345')
		form.set('companyId', '1234567890')
		form.set('mobile', '+372 5123 4567')
		form.set('website', 'https://kask.example')
		const submission = parseWithZod(form, { schema })
		expect(submission.status).toBe('success')
		if (submission.status === 'success') {
			expect(submission.value.name).toBe('Mari')
			expect(submission.value.email).toBe('mari.tamm@example.com')
		}
	})
})

describe('text and dates people cannot have meant', () => {
	const text = z.object({ note: optionalText(200), title: requiredText(50) })
	const read = (values: Record<string, string>) => text.safeParse(values)

	test('control characters are refused in every text field; line breaks and tabs are text', () => {
		for (const bad of ['a\u0000b', 'x\u0007', '\u001b[31mred', 'del\u007f']) {
			expect(read({ title: bad }).error?.issues[0]?.message).toBe('validation.controlCharacters')
			expect(read({ title: 'ok', note: bad }).error?.issues[0]?.message).toBe('validation.controlCharacters')
		}
		expect(read({ title: 'Two\tcolumns', note: 'line one\r\nline two' }).success).toBe(true)
		expect(password().safeParse('abc\u0000defgh').success).toBe(false)
		expect(websiteUrl().safeParse('https://example.com/\u0000').success).toBe(false)
	})

	test('a search box never refuses: control characters are dropped', () => {
		expect(searchText().parse('\u0000Kask\u0007 ')).toBe('Kask')
		expect(searchText().parse('\u0000')).toBeUndefined()
	})

	test('a date and time must exist on the calendar', () => {
		const when = localDateTime()
		for (const impossible of ['2026-02-30T10:00', '2026-13-01T10:00', '2026-00-10T10:00', '2026-04-31T10:00', '2026-01-01T24:00', '2026-01-01T10:60', '9999-01-01T10:00', '0000-01-01T10:00']) {
			expect(when.safeParse(impossible).error?.issues[0]?.message, impossible).toBe('validation.realDate')
		}
		expect(when.safeParse('2028-02-29T10:00').success).toBe(true)
		expect(when.safeParse('2027-02-29T10:00').success).toBe(false)
		expect(isRealDateTime('2026-12-31')).toBe(true)
		expect(when.parse('2026-07-01T12:00').toISOString()).toBe('2026-07-01T09:00:00.000Z')
	})
})

describe('the review rating', () => {
	const ratingErrors = (rating?: string) => {
		const form = new FormData()
		form.set('body', 'Fine work')
		if (rating !== undefined) form.set('rating', rating)
		const submission = parseWithZod(form, { schema: ReviewSchema })
		return submission.status === 'success' ? undefined : submission.reply().error?.rating
	}

	test('takes half stars from 0.5 to 5', () => {
		for (const rating of ['0.5', '1', '2.5', '4.5', '5']) expect(ratingErrors(rating), rating).toBeUndefined()
	})

	test('refuses other values with its own message, and a missing one as required', () => {
		for (const rating of ['0', '1.25', '5.5', '-1']) expect(ratingErrors(rating), rating).toEqual(['validation.rating'])
		expect(ratingErrors()).toEqual(['validation.required'])
	})
})
