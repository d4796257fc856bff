import { z } from 'zod'

/**
 * Building blocks for the form schemas. Every error is a translation key under `common:validation`,
 * so one schema serves the portal, the JSON API and the widgets, and each shows the message in
 * its reader's language (ErrorList in the browser, translateErrors on the server).
 */
export const messages = {
	required: 'validation.required',
	email: 'validation.email',
	min3: 'validation.min3',
	min8: 'validation.min8',
	tooLong: 'validation.tooLong',
	password: 'validation.password',
	passwordMismatch: 'validation.passwordMismatch',
	companyId: 'validation.companyId',
	mobile: 'validation.mobile',
	url: 'validation.url',
	choose: 'validation.choose',
} as const

/** A search box's text: trimmed, at most 100 characters, empty or unusable becomes undefined (never refused). */
export const searchText = () =>
	z
		.string()
		.trim()
		.max(100)
		.optional()
		.catch(undefined)
		.transform((value) => value || undefined)

/** A required line of text, trimmed. */
export const requiredText = (max = 200) =>
	z.string({ error: messages.required }).trim().min(1, messages.required).max(max, messages.tooLong)

/** An optional line of text: empty becomes undefined. */
export const optionalText = (max = 2000) => z.string().trim().max(max, messages.tooLong).optional()

/** Names, company and workshop names: at least 3 characters (spec §5). */
export const nameText = () => requiredText(100).pipe(z.string().min(3, messages.min3))

export const emailAddress = () =>
	z
		.string({ error: messages.required })
		.trim()
		.min(1, messages.required)
		.max(254, messages.tooLong)
		.pipe(z.email({ error: messages.email }))
		.transform((value) => value.toLowerCase())

/** 8 to 12 characters (spec §5, §9). */
export const password = () =>
	z.string({ error: messages.required }).min(8, messages.password).max(12, messages.password)

/** A valid 10-digit number (spec §5). */
export const companyId = () =>
	z
		.string({ error: messages.required })
		.trim()
		.regex(/^\d{10}$/, messages.companyId)

/** A phone number as people write it: digits, spaces, +, -, brackets; 6 to 20 characters. */
export const mobileNumber = () =>
	z
		.string({ error: messages.required })
		.trim()
		.min(1, messages.required)
		.regex(/^\+?[0-9][0-9 ()-]{4,18}[0-9]$/, messages.mobile)

export const websiteUrl = () =>
	z
		.string()
		.trim()
		.max(300, messages.tooLong)
		.pipe(z.url({ protocol: /^https?$/, error: messages.url }))

/** A price in euros as people type it ("185", "185.5", "185,50") → cents, more than 0, at most 1 000 000 €. */
export const moneyAmount = () =>
	z
		.string({ error: messages.required })
		.trim()
		.min(1, messages.required)
		.regex(/^\d{1,7}([.,]\d{1,2})?$/, 'validation.money')
		.transform((value) => Math.round(Number(value.replace(',', '.')) * 100))
		.pipe(z.number().int().min(1, 'validation.money').max(100_000_000, 'validation.money'))

/** A whole number in a range, from a form field. */
export const wholeNumber = (min: number, max: number) =>
	z.coerce.number({ error: messages.required }).int('validation.number').min(min, 'validation.number').max(max, 'validation.number')

/** A date and time from <input type="datetime-local">, read as Estonian time. */
export const localDateTime = () =>
	z
		.string({ error: messages.required })
		.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'validation.dateTime')
		.transform((value) => tallinnToDate(value))

/** "2026-11-25T10:00" in Europe/Tallinn → the instant. */
export function tallinnToDate(local: string): Date {
	const asUtc = new Date(`${local}:00Z`)
	// The zone's offset at that moment, found from how the instant reads in Tallinn.
	const parts = new Intl.DateTimeFormat('en-GB', {
		timeZone: 'Europe/Tallinn',
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
	}).formatToParts(asUtc)
	const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
	const seen = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'))
	return new Date(asUtc.getTime() - (seen - asUtc.getTime()))
}

/** The instant as "2026-11-25T10:00" in Europe/Tallinn, for a datetime-local input. */
export function dateToTallinnInput(date: Date | string): string {
	const parts = new Intl.DateTimeFormat('en-GB', {
		timeZone: 'Europe/Tallinn',
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
	}).formatToParts(new Date(date))
	const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00'
	return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`
}

/** A uuid chosen from a list the server offered. */
export const choice = () => z.string({ error: messages.required }).uuid(messages.required)
