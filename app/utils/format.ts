import { type Language } from '~/i18n/config'
import { dateTimeFormat, numberFormat } from './intl'
import { TIME_ZONE } from './time'

/**
 * Dates and numbers in the reader's language. Dates are formatted on the server (loaders) and
 * sent as text, so the page hydrates without depending on the browser's time zone or ICU data.
 * Money is formatted by app/utils/money.ts (re-exported here, where the pages have always found it).
 */
export { formatMoney } from './money'

const DATE = { dateStyle: 'long', timeZone: TIME_ZONE } as const
const DATE_TIME = { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: TIME_ZONE } as const
const RATING = { minimumFractionDigits: 1, maximumFractionDigits: 1 } as const
const MONTH = { month: 'long', year: 'numeric', timeZone: 'UTC' } as const
const DAY_OF_YEAR = { day: 'numeric', month: 'long', timeZone: 'UTC' } as const

export function formatDate(value: string | Date, language: Language) {
	return dateTimeFormat(language, DATE).format(new Date(value))
}

/** A day of every year ("10-01", site settings) as "1 October". */
export function formatDayOfYear(monthDay: string, language: Language) {
	return dateTimeFormat(language, DAY_OF_YEAR).format(new Date(`2025-${monthDay}T12:00:00Z`))
}

export function formatDateTime(value: string | Date, language: Language) {
	return dateTimeFormat(language, DATE_TIME).format(new Date(value))
}

/** An average rating with one decimal: 4.5, or 4,5 in Estonian and Russian. */
export function formatRating(value: number, language: Language) {
	return numberFormat(language, RATING).format(value)
}

export function formatNumber(value: number, language: Language) {
	return numberFormat(language).format(value)
}

/** A calendar month ("2026-11") by name: "November 2026", "november 2026", "ноябрь 2026 г.". */
export function formatMonth(month: string, language: Language) {
	return dateTimeFormat(language, MONTH).format(new Date(`${month}-01T00:00:00Z`))
}

const SHORT_MONTH = { month: 'short', year: 'numeric', timeZone: 'UTC' } as const

/** The months of two days ('YYYY-MM-DD'), as Intl writes a range: "Dec 2024 – Nov 2026", "dets 2024 – nov 2026" (a usual price's period). */
export function formatMonthRange(fromDay: string, toDay: string, language: Language) {
	const [from, to] = [fromDay, toDay].map((day) => new Date(`${day.slice(0, 7)}-01T00:00:00Z`)) as [Date, Date]
	return dateTimeFormat(language, SHORT_MONTH).formatRange(from, to)
}

const CLOCK = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: TIME_ZONE } as const
const WEEKDAY_DATE = { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' } as const

/** An instant's time on the Tallinn clock: "09:30" (the agenda, issue 33). */
export function formatClock(value: string | Date, language: Language) {
	return dateTimeFormat(language, CLOCK).format(new Date(value))
}

/** A calendar day ('YYYY-MM-DD') with its weekday: "Monday 24 February" (the agenda's day headings). */
export function formatWeekdayDate(day: string, language: Language) {
	return dateTimeFormat(language, WEEKDAY_DATE).format(new Date(`${day}T12:00:00Z`))
}

const SHORT_DAY = { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' } as const

/** A calendar day ('YYYY-MM-DD') short, with its weekday: "Sun 29 Nov", "P, 29. nov", "вс, 29 нояб." (a table of days). */
export function formatShortDay(day: string, language: Language) {
	return dateTimeFormat(language, SHORT_DAY).format(new Date(`${day}T12:00:00Z`))
}
