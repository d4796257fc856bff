import * as z from 'zod/mini'
import { tallinnDay } from '~/utils/time'
import { checkbox, isRealDateTime, localDate, optionalText, preprocess, wholeNumber } from '~/utils/validation'
import { type OpeningInterval } from './calendar'

/**
 * The workshop's calendar settings form (/workshop-calendar, issue 33): its bays, its weekly hours
 * with breaks, a day off to add and the ones to remove, the notice, the booking window, the buffer
 * between jobs, the start-time step and whether it opens on public holidays. Browser-safe: the page
 * checks as the server does.
 *
 * Each weekday has up to INTERVALS_PER_DAY pairs of time inputs, named flat (`mon1Opens`,
 * `mon1Closes` …) so the form works without JavaScript; the schema turns them into intervals.
 */
export const MAX_BAYS = 20
export const INTERVALS_PER_DAY = 3
export const STEP_CHOICES = [10, 15, 20, 30, 60] as const
export const weekdayKeys = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type WeekdayKey = (typeof weekdayKeys)[number]
const slots = [1, 2, 3] as const
type Slot = (typeof slots)[number]
export type HourField = `${WeekdayKey}${Slot}${'Opens' | 'Closes'}`

/** The field names of one weekday's interval `slot` (1-based). */
export const hourFields = (day: WeekdayKey, slot: number) => ({ opens: `${day}${slot}Opens` as HourField, closes: `${day}${slot}Closes` as HourField })

const empty = (value: unknown) => (value === '' || value === null ? undefined : value)
const time = () => preprocess(empty, z.optional(z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'validation.time'))))

const hourShape = Object.fromEntries(
	weekdayKeys.flatMap((day) => slots.flatMap((slot) => [[hourFields(day, slot).opens, time()], [hourFields(day, slot).closes, time()]])),
) as Record<HourField, ReturnType<typeof time>>

export const CalendarSettingsSchema = z
	.pipe(
		z
			.object({
				bays: wholeNumber(1, MAX_BAYS),
				minNoticeHours: wholeNumber(0, 168),
				horizonDays: wholeNumber(1, 366),
				bufferMinutes: wholeNumber(0, 480),
				stepMinutes: z.pipe(
					wholeNumber(10, 60),
					z.number().check(z.refine((value) => (STEP_CHOICES as readonly number[]).includes(value), 'validation.choose')),
				),
				openOnPublicHolidays: checkbox(),
				...hourShape,
				dayOff: preprocess(empty, z.optional(localDate())),
				dayOffNote: optionalText(200),
				// The days off ticked for removal ('YYYY-MM-DD'), one input each; a day that is no day is dropped.
				removeDaysOff: z.pipe(
					z.optional(z.union([z.string(), z.array(z.string())])),
					z.transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]).filter((day) => /^\d{4}-\d{2}-\d{2}$/.test(day) && isRealDateTime(day))),
				),
			})
			.check(
				z.superRefine((value, ctx) => {
					for (const day of weekdayKeys) {
						let previousCloses: string | null = null
						for (const slot of slots) {
							const names = hourFields(day, slot)
							const opens = value[names.opens]
							const closes = value[names.closes]
							// Both empty: no interval; one alone is a mistake; closing after opening, after the previous interval.
							if (Boolean(opens) !== Boolean(closes)) {
								ctx.addIssue({ code: 'custom', path: [opens ? names.closes : names.opens], message: 'validation.timePair' })
							} else if (opens && closes) {
								if (closes <= opens) ctx.addIssue({ code: 'custom', path: [names.closes], message: 'validation.closesAfterOpens' })
								else if (previousCloses && opens < previousCloses) ctx.addIssue({ code: 'custom', path: [names.opens], message: 'booking:calendar.errors.overlap' })
								previousCloses = closes
							}
						}
					}
					if (value.dayOff && value.dayOff < tallinnDay()) ctx.addIssue({ code: 'custom', path: ['dayOff'], message: 'booking:calendar.errors.pastDay' })
				}),
			),
		z.transform((value) => ({
			bays: value.bays,
			minNoticeHours: value.minNoticeHours,
			horizonDays: value.horizonDays,
			bufferMinutes: value.bufferMinutes,
			stepMinutes: value.stepMinutes,
			openOnPublicHolidays: value.openOnPublicHolidays,
			hours: weekdayKeys.flatMap((day, index) =>
				slots.flatMap((slot): OpeningInterval[] => {
					const names = hourFields(day, slot)
					const [opens, closes] = [value[names.opens], value[names.closes]]
					return opens && closes ? [{ weekday: index + 1, opens, closes }] : []
				}),
			),
			addDayOff: value.dayOff ? { day: value.dayOff, note: value.dayOffNote ?? '' } : null,
			removeDaysOff: value.removeDaysOff,
		})),
	)

export type CalendarSettingsInput = z.output<typeof CalendarSettingsSchema>
/** The form's fields as the page sends them. */
export type CalendarSettingsForm = z.input<typeof CalendarSettingsSchema>

/** The form's starting values from saved settings: the intervals laid into their weekday's slots. */
export function settingsFormValues(settings: {
	bays: number
	minNoticeHours: number
	horizonDays: number
	bufferMinutes: number
	stepMinutes: number
	openOnPublicHolidays: boolean
	hours: OpeningInterval[]
}): Record<string, string | undefined> {
	const values: Record<string, string | undefined> = {
		bays: String(settings.bays),
		minNoticeHours: String(settings.minNoticeHours),
		horizonDays: String(settings.horizonDays),
		bufferMinutes: String(settings.bufferMinutes),
		stepMinutes: String(settings.stepMinutes),
		openOnPublicHolidays: settings.openOnPublicHolidays ? 'on' : undefined,
	}
	for (const [index, day] of weekdayKeys.entries()) {
		const intervals = settings.hours.filter((interval) => interval.weekday === index + 1).sort((a, b) => a.opens.localeCompare(b.opens))
		intervals.slice(0, INTERVALS_PER_DAY).forEach((interval, slot) => {
			const names = hourFields(day, slot + 1)
			values[names.opens] = interval.opens.slice(0, 5)
			values[names.closes] = interval.closes === '24:00' ? '23:59' : interval.closes.slice(0, 5)
		})
	}
	return values
}
