/**
 * A vehicle's reminders (issue 20, the passport's third part): the technical inspection, the
 * seasonal tyres and the service interval. Browser-safe, without zod (the forms' schemas are
 * reminder-schema.ts). What is due when is worked out here once, for the page, the calendar and
 * the hourly notices (docs/decisions/0102).
 */
import { encodeId } from '~/utils/public-id'
import { addMonths, daysBetween } from './passport'

export const reminderKinds = ['inspection', 'tyres', 'service'] as const
export type ReminderKind = (typeof reminderKinds)[number]

/** The service (its reference code) a reminder's request asks for, prefilled on /new-service-register. */
export const reminderService: Record<ReminderKind, string> = { inspection: 'inspection-prep', tyres: 'tyres', service: 'maintenance' }
/** The request a reminder opens: prefilled with the vehicle (its id) and the reminder's service. */
export const reminderRequestPath = (vehicleId: string, kind: ReminderKind) =>
	`/new-service-register?vehicle=${encodeId(vehicleId)}&service=${reminderService[kind]}`

/** The services whose completed job is a service of the interval (it starts again from that job). */
export const intervalServices = ['maintenance', 'oil-change']

/** The notices of a due reminder, one text each (the tyres' by the change they are about). */
export const reminderMessages = {
	'notifications.reminderInspection': 'inspection',
	'notifications.reminderWinterTyres': 'tyres',
	'notifications.reminderSummerTyres': 'tyres',
	'notifications.reminderService': 'service',
} as const satisfies Record<string, ReminderKind>
export const reminderMessageKey = (kind: ReminderKind, season: 'winter' | 'summer' | null): keyof typeof reminderMessages =>
	kind === 'tyres' ? (season === 'summer' ? 'notifications.reminderSummerTyres' : 'notifications.reminderWinterTyres') : kind === 'inspection' ? 'notifications.reminderInspection' : 'notifications.reminderService'

/** What a new reminder starts with, and the bounds beyond which a figure is absurd. */
export const REMINDER_DEFAULTS = { daysBefore: 14, inspectionMonths: 24, serviceKm: 15_000, serviceMonths: 12 }
export const REMINDER_LIMITS = {
	daysBefore: [1, 60],
	inspectionMonths: [6, 48],
	serviceKm: [1_000, 100_000],
	serviceMonths: [1, 36],
	/** An inspection is not due more than this many years ahead. */
	inspectionYearsAhead: 4,
} as const
/** A service is told when this many km are left of its interval. */
export const SERVICE_NOTICE_KM = 1000
/** The tyres' notice is sent within this many days of the season's reminder day (a stopped server catches up). */
export const TYRE_NOTICE_DAYS = 14
/** Snoozing puts a reminder off by one of these. */
export const snoozeDays = [7, 30] as const

/** The site's tyre reminder days ("10-01", "03-15"; site settings, so another country may change them). */
export type TyreDays = { autumn: string; spring: string }
export const DEFAULT_TYRE_DAYS: TyreDays = { autumn: '10-01', spring: '03-15' }

/** A reminder as the owner set it. */
export type ReminderSettings = {
	kind: ReminderKind
	active: boolean
	/** The inspection's due day (entered, or worked out from the last one when saved). */
	dueOn: string | null
	/** The last inspection or service. */
	lastDoneOn: string | null
	lastDoneMileage: number | null
	everyMonths: number | null
	everyKm: number | null
	daysBefore: number
	snoozedUntil: string | null
	/** Which occurrence was told (its key), so each is told once. */
	notifiedKey: string | null
}

export type ReminderState = 'off' | 'snoozed' | 'scheduled' | 'due' | 'overdue'

export type ReminderSchedule = ReminderSettings & {
	state: ReminderState
	/** The day it is due (the inspection's, the season's reminder day, the service's by months). */
	nextOn: string | null
	/** A service due by mileage: the reading in km (pages show it in the vehicle's unit). */
	dueKm: number | null
	/** Tyres: the change this reminder is about. */
	season: 'winter' | 'summer' | null
	/** The occurrence; a notice is sent once per key. */
	key: string | null
	/** Whether the hourly job should tell it now. */
	notify: boolean
}

/** `day` minus `days` ("2026-11-24" − 3 → "2026-11-21"). */
export function addDays(day: string, days: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

/** The tyres' season days around `today`: the last one reached and the next one. */
function tyreSeason(today: string, days: TyreDays) {
	const year = Number(today.slice(0, 4))
	const occurrences = [year - 1, year, year + 1]
		.flatMap((y) => [
			{ on: `${y}-${days.autumn}`, season: 'winter' as const },
			{ on: `${y}-${days.spring}`, season: 'summer' as const },
		])
		.sort((a, b) => a.on.localeCompare(b.on))
	const last = occurrences.filter((o) => o.on <= today).at(-1)!
	const next = occurrences.find((o) => o.on > today)!
	return { last, next }
}

/**
 * When the reminder is due on `today`, with the vehicle at `mileage` (km): its next day (and a
 * service's mileage), its state, and whether its notice should go out now. An inspection is told
 * `daysBefore` its day; a service `daysBefore` its day or SERVICE_NOTICE_KM before its mileage,
 * whichever comes first; the tyres on the season's reminder day (site settings). Overdue ones are
 * told too, once per occurrence; snoozed and turned-off ones are not.
 */
export function reminderSchedule(reminder: ReminderSettings, context: { mileage: number; today: string; tyreDays: TyreDays }): ReminderSchedule {
	const { today, mileage } = context
	let nextOn: string | null = null
	let dueKm: number | null = null
	let season: ReminderSchedule['season'] = null
	let key: string | null = null
	let due = false
	let overdue = false
	if (reminder.kind === 'inspection') {
		nextOn = reminder.dueOn
		key = nextOn
		due = nextOn !== null && today >= addDays(nextOn, -reminder.daysBefore)
		overdue = nextOn !== null && today > nextOn
	} else if (reminder.kind === 'tyres') {
		const { last, next } = tyreSeason(today, context.tyreDays)
		const current = daysBetween(last.on, today) < TYRE_NOTICE_DAYS ? last : next
		nextOn = current.on
		season = current.season
		key = current.on
		due = current === last
	} else {
		if (reminder.lastDoneOn && reminder.everyMonths) nextOn = addMonths(reminder.lastDoneOn, reminder.everyMonths)
		if (reminder.lastDoneMileage !== null && reminder.everyKm) dueKm = reminder.lastDoneMileage + reminder.everyKm
		key = nextOn || dueKm !== null ? `${nextOn ?? ''}/${dueKm ?? ''}` : null
		due = (nextOn !== null && today >= addDays(nextOn, -reminder.daysBefore)) || (dueKm !== null && mileage >= dueKm - SERVICE_NOTICE_KM)
		overdue = (nextOn !== null && today > nextOn) || (dueKm !== null && mileage >= dueKm)
	}
	const state: ReminderState = !reminder.active
		? 'off'
		: reminder.snoozedUntil && reminder.snoozedUntil > today
			? 'snoozed'
			: overdue
				? 'overdue'
				: due
					? 'due'
					: 'scheduled'
	const notify = (state === 'due' || state === 'overdue') && key !== null && key !== reminder.notifiedKey
	return { ...reminder, state, nextOn, dueKm, season, key, notify }
}

/** A reminder the owner has not set yet: its kind with the defaults, turned off. */
export function unsetReminder(kind: ReminderKind): ReminderSettings {
	return {
		kind,
		active: false,
		dueOn: null,
		lastDoneOn: null,
		lastDoneMileage: null,
		everyMonths: kind === 'inspection' ? REMINDER_DEFAULTS.inspectionMonths : kind === 'service' ? REMINDER_DEFAULTS.serviceMonths : null,
		everyKm: kind === 'service' ? REMINDER_DEFAULTS.serviceKm : null,
		daysBefore: REMINDER_DEFAULTS.daysBefore,
		snoozedUntil: null,
		notifiedKey: null,
	}
}

/** "10-01" from a day of the year as typed ("1.10", "01.10."), or null if it is no real day. */
export function parseDayOfYear(value: string): string | null {
	const match = /^(\d{1,2})\.(\d{1,2})\.?$/.exec(value.trim())
	if (!match) return null
	const [day, month] = [Number(match[1]), Number(match[2])]
	// A day of every year: 29.02 is not.
	if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(2025, month, 0)).getUTCDate()) return null
	return `${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** "01.10" for the settings form, from "10-01". */
export const dayOfYearInput = (stored: string) => `${stored.slice(3, 5)}.${stored.slice(0, 2)}`
