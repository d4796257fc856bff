import { z } from 'zod'
import { parseMoney } from './money'
import { tallinnToDate } from './time'

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
	controlCharacters: 'validation.controlCharacters',
	rating: 'validation.rating',
} as const

/**
 * Control characters (NUL and the like) have no place in what people type, and PostgreSQL refuses
 * NUL outright: every text field refuses them. Line breaks and tabs are text.
 */
// eslint-disable-next-line no-control-regex -- control characters are what these look for
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/
// eslint-disable-next-line no-control-regex -- as above
const ALL_CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g
export const hasNoControlCharacters = (value: string) => !CONTROL_CHARACTERS.test(value)

/** Any text from a form: trimmed, at most `max` characters, no control characters. */
export const plainText = (max: number) =>
	z.string().trim().max(max, messages.tooLong).refine(hasNoControlCharacters, messages.controlCharacters)

/** A search box's text: trimmed, at most 100 characters, empty or unusable becomes undefined (never refused). */
export const searchText = () =>
	z
		.string()
		.trim()
		.max(100)
		.optional()
		.catch(undefined)
		// A search box never refuses: control characters are simply dropped.
		.transform((value) => value?.replace(ALL_CONTROL_CHARACTERS, '').trim() || undefined)

/** A required line of text, trimmed. */
export const requiredText = (max = 200) =>
	z
		.string({ error: messages.required })
		.trim()
		.min(1, messages.required)
		.max(max, messages.tooLong)
		.refine(hasNoControlCharacters, messages.controlCharacters)

/** An optional line of text: empty becomes undefined. */
export const optionalText = (max = 2000) => plainText(max).optional()

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
	z
		.string({ error: messages.required })
		.min(8, messages.password)
		.max(12, messages.password)
		.refine(hasNoControlCharacters, messages.controlCharacters)

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
		.refine(hasNoControlCharacters, messages.url)
		.pipe(z.url({ protocol: /^https?$/, error: messages.url }))

/**
 * A price in euros as people type it ("185", "185.5", "185,50") → cents (app/utils/money.ts), by
 * default more than 0 and at most 1 000 000 €.
 */
export const moneyAmount = ({ min = 1, max = 100_000_000 }: { min?: number; max?: number } = {}) =>
	z
		.string({ error: messages.required })
		.trim()
		.min(1, messages.required)
		.transform((value, context) => {
			const cents = parseMoney(value)
			if (cents === null) context.addIssue({ code: 'custom', message: 'validation.money' })
			return cents ?? z.NEVER
		})
		.pipe(z.number().int().min(min, 'validation.money').max(max, 'validation.money'))

/** A whole number in a range, from a form field. */
export const wholeNumber = (min: number, max: number) =>
	z.coerce.number({ error: messages.required }).int('validation.number').min(min, 'validation.number').max(max, 'validation.number')

/** A date and time from <input type="datetime-local">, read as Estonian time; the day must exist. */
export const localDateTime = () =>
	z
		.string({ error: messages.required })
		.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'validation.dateTime')
		.refine((value) => isRealDateTime(value), 'validation.realDate')
		.transform((value) => tallinnToDate(value))

/** A day from <input type="date"> ("2026-11-24"); the day must exist. Kept as the text. */
export const localDate = () =>
	z
		.string({ error: messages.required })
		.regex(/^\d{4}-\d{2}-\d{2}$/, 'validation.date')
		.refine((value) => isRealDateTime(value), 'validation.realDate')

// Forms and routes have always found these here; they live with the time zone.

const MIN_YEAR = 2000
const MAX_YEAR = 2100

/** "2026-02-28T10:00" yes; "2026-02-30T10:00", "2026-13-01T10:00", "2026-01-01T24:00" and the year 9999 no. */
export function isRealDateTime(value: string): boolean {
	const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(value)
	if (!match) return false
	const [year, month, day, hour, minute] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number]
	if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || hour > 23 || minute > 59) return false
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
	return day >= 1 && day <= daysInMonth
}

/** A uuid chosen from a list the server offered. */
export const choice = () => z.string({ error: messages.required }).uuid(messages.required)
