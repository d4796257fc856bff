import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { describe, expect, test } from 'vitest'
import { companyId, emailAddress, mobileNumber, nameText, password, websiteUrl } from '~/utils/validation'

const schema = z.object({
	name: nameText(),
	email: emailAddress(),
	password: password(),
	companyId: companyId(),
	mobile: mobileNumber(),
	website: websiteUrl().optional(),
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
		expect(errorsOf({ name: 'Mari', email: 'a@b.ee', password: '1234567890123', companyId: '1234567890', mobile: '+372 5123 4567' })).toEqual({
			password: ['validation.password'],
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
