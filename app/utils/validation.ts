import * as z from 'zod/mini'
import { parseMoney } from './money'
import { isCompanyId } from './registry-code'
import { tallinnToDate } from './time'

/**
 * Building blocks for the form schemas. Every error is a translation key under `common:validation`,
 * so one schema serves the portal, the JSON API and the widgets, and each shows the message in
 * its reader's language (ErrorList in the browser, translateErrors on the server).
 * Written with zod/mini, as every schema is: its functions leave out of the browser what a form
 * does not use, where classic zod's methods bring all of it (docs/decisions/0108).
 */
export const messages = {
	required: 'validation.required',
	email: 'validation.email',
	min3: 'validation.min3',
	min8: 'validation.min8',
	tooLong: 'validation.tooLong',
	password: 'validation.password',
	passwordTooLong: 'validation.passwordTooLong',
	passwordMismatch: 'validation.passwordMismatch',
	companyId: 'validation.companyId',
	mobile: 'validation.mobile',
	url: 'validation.url',
	choose: 'validation.choose',
	controlCharacters: 'validation.controlCharacters',
	rating: 'validation.rating',
	vatNumber: 'validation.vatNumber',
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

/** A function applied before the schema (classic zod's `preprocess`, which zod/mini does not have). */
export function preprocess<U extends z.ZodMiniType>(fn: (value: unknown) => unknown, schema: U): z.ZodMiniPipe<z.ZodMiniTransform<unknown, unknown>, U> {
	return z.pipe(z.transform(fn), schema as z.ZodMiniType<unknown, unknown>) as z.ZodMiniPipe<z.ZodMiniTransform<unknown, unknown>, U>
}

/** Any text from a form: trimmed, at most `max` characters, no control characters. */
export const plainText = (max: number) =>
	z.string().check(z.trim(), z.maxLength(max, messages.tooLong), z.refine(hasNoControlCharacters, messages.controlCharacters))

/** A search box's text: trimmed, at most 100 characters, empty or unusable becomes undefined (never refused). */
export const searchText = () =>
	z.pipe(
		z.catch(z.optional(z.string().check(z.trim(), z.maxLength(100))), undefined),
		// A search box never refuses: control characters are simply dropped.
		z.transform((value: string | undefined) => value?.replace(ALL_CONTROL_CHARACTERS, '').trim() || undefined),
	)

/** A required line of text, trimmed. */
export const requiredText = (max = 200) =>
	z
		.string({ error: messages.required })
		.check(z.trim(), z.minLength(1, messages.required), z.maxLength(max, messages.tooLong), z.refine(hasNoControlCharacters, messages.controlCharacters))

/** An optional line of text: empty becomes undefined. */
export const optionalText = (max = 2000) => z.optional(plainText(max))

/** Names, company and workshop names: at least 3 characters (spec §5). */
export const nameText = () => z.pipe(requiredText(100), z.string().check(z.minLength(3, messages.min3)))

export const emailAddress = () =>
	z.pipe(
		z.pipe(
			z.string({ error: messages.required }).check(z.trim(), z.minLength(1, messages.required), z.maxLength(254, messages.tooLong)),
			z.email({ error: messages.email }),
		),
		z.transform((value: string) => value.toLowerCase()),
	)

/** The longest password one may choose (spec §5, §9): a longer one is refused, never cut (decision 0121). */
export const PASSWORD_MAX_LENGTH = 12

/** A new password: 8 to 12 characters (spec §5, §9), exactly as typed. */
export const password = () =>
	z
		.string({ error: messages.required })
		.check(
			z.minLength(8, messages.password),
			z.maxLength(PASSWORD_MAX_LENGTH, messages.passwordTooLong),
			z.refine(hasNoControlCharacters, messages.controlCharacters),
		)

/**
 * A password typed to prove who one is (log in, confirm a deletion): whatever was typed, not
 * trimmed and of any sensible length; a wrong one is simply a failed attempt.
 */
export const typedPassword = () => z.string({ error: messages.required }).check(z.minLength(1, messages.required), z.maxLength(200, messages.tooLong))

/** An 8-digit Estonian registry code with its check digit, or a 10-digit number (spec §5; decision 0120). */
export const companyId = () => z.string({ error: messages.required }).check(z.trim(), z.refine(isCompanyId, messages.companyId))

/**
 * A VAT identification number as the EU writes it: the country's two letters, then 2 to 13 letters
 * or digits ("EE102345678"); spaces, dots and dashes as people type them are dropped, letters made
 * capital (EN 16931 rule BR-CO-9 wants the country prefix).
 */
export const vatNumber = () =>
	z.pipe(
		z.pipe(
			z.string({ error: messages.required }).check(z.trim(), z.maxLength(40, messages.tooLong)),
			z.transform((value: string) => value.replace(/[\s.-]/g, '').toUpperCase()),
		),
		z.string().check(z.regex(/^[A-Z]{2}[0-9A-Z]{2,13}$/, messages.vatNumber)),
	)

/** A checkbox: ticked ("on", or "true" from the API) or not. */
export const checkbox = () => z.pipe(z.optional(z.string()), z.transform((value) => value === 'on' || value === 'true'))

/** A phone number as people write it: digits, spaces, +, -, brackets; 6 to 20 characters. */
export const mobileNumber = () =>
	z.string({ error: messages.required }).check(z.trim(), z.minLength(1, messages.required), z.regex(/^\+?[0-9][0-9 ()-]{4,18}[0-9]$/, messages.mobile))

export const websiteUrl = () =>
	z.pipe(
		z.string().check(z.trim(), z.maxLength(300, messages.tooLong), z.refine(hasNoControlCharacters, messages.url)),
		z.url({ protocol: /^https?$/, error: messages.url }),
	)

/**
 * A price in euros as people type it ("185", "185.5", "185,50") → cents (app/utils/money.ts), by
 * default more than 0 and at most 1 000 000 €.
 */
export const moneyAmount = ({ min = 1, max = 100_000_000 }: { min?: number; max?: number } = {}) =>
	z.pipe(
		z.pipe(
			z.string({ error: messages.required }).check(z.trim(), z.minLength(1, messages.required)),
			z.transform((value: string, context) => {
				const cents = parseMoney(value)
				if (cents === null) context.issues.push({ code: 'custom', message: 'validation.money', input: value })
				return cents ?? z.NEVER
			}),
		),
		z.number().check(z.int('validation.money'), z.minimum(min, 'validation.money'), z.maximum(max, 'validation.money')),
	)

/** A whole number in a range, from a form field. */
export const wholeNumber = (min: number, max: number) =>
	z.coerce.number({ error: messages.required }).check(z.int('validation.number'), z.minimum(min, 'validation.number'), z.maximum(max, 'validation.number'))

/** A date and time from <input type="datetime-local">, read as Estonian time; the day must exist. */
export const localDateTime = () =>
	z.pipe(
		z.string({ error: messages.required }).check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'validation.dateTime'), z.refine(isRealDateTime, 'validation.realDate')),
		z.transform((value: string) => tallinnToDate(value)),
	)

/** A day from <input type="date"> ("2026-11-24"); the day must exist. Kept as the text. */
export const localDate = () =>
	z.string({ error: messages.required }).check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'validation.date'), z.refine(isRealDateTime, 'validation.realDate'))

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
export const choice = () => z.string({ error: messages.required }).check(z.uuid(messages.required))
