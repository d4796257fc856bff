/**
 * The vehicle passport (issue 20): a vehicle's service history (its completed jobs and the work
 * done elsewhere that its owner added), what is still under warranty, and its private calendar.
 * Browser-safe, without zod (the forms' schemas are passport-schema.ts). Every reading and a
 * workshop's work warranty are in km here; pages show them in the vehicle's unit (decision 0122).
 */
import { type OfferLineKind } from './offer-kinds'

/** A warranty is "expiring" (highlighted; told by bell and e-mail for the months) within this. */
export const WARRANTY_NOTICE_DAYS = 30
/** A work warranty is "expiring" with at most this many km left. */
export const WARRANTY_NOTICE_KM = 1000

/** One line of the work done: from the offer's lines or approved extra work. */
export type HistoryLine = { kind: OfferLineKind; description: string; reference: string }

/** One entry of the service history: a completed job of this marketplace, or work done elsewhere. */
export type HistoryEntry = {
	id: string
	source: 'job' | 'record'
	/** The day of the work, "2026-11-24" (Tallinn). */
	on: string
	mileage: number | null
	/** The workshop's name (a job's, or as the owner typed it). */
	workshopName: string
	/** The kinds of work (a job's services) or what the owner wrote. */
	title: string
	lines: HistoryLine[]
	paidCents: number | null
	quotedCents: number | null
	/** Documents: a job's offer PDF and invoice, a record's PDF (upload ids). */
	offerPdf: string | null
	invoicePdf: string | null
	documentPdf: string | null
	/** A job's page (its request, public id) for the owner. */
	requestId: string | null
}

/** A job's warranty as the workshop gave it when the job completed. */
export type WarrantyTerms = {
	offerId: string
	workshopName: string
	title: string
	completedOn: string
	mileageAtJob: number | null
	workKm: number | null
	partsMonths: number | null
}

export type WarrantyState = 'valid' | 'expiring' | 'expired'

/** Until which reading (km) the work warranty runs, and how many km are left of it. */
export type WorkWarranty = { untilKm: number; leftKm: number; state: WarrantyState }
export type PartsWarranty = { until: string; daysLeft: number; state: WarrantyState }
export type Warranty = WarrantyTerms & { work: WorkWarranty | null; parts: PartsWarranty | null }

/** "2026-11-24" + n months, on the last day of a shorter month ("2026-01-31" + 1 → "2026-02-28"). */
export function addMonths(day: string, months: number): string {
	const [year, month, date] = day.split('-').map(Number) as [number, number, number]
	const target = new Date(Date.UTC(year, month - 1 + months, 1))
	const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
	target.setUTCDate(Math.min(date, lastDay))
	return target.toISOString().slice(0, 10)
}

/** Whole days from `from` to `to` ("2026-11-24" to "2026-11-30" is 6). */
export function daysBetween(from: string, to: string): number {
	return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}

/**
 * What is left of a job's warranty on `today` with the vehicle at `mileage`: the work warranty
 * until the mileage at the job plus its km, the parts warranty until the day of completion plus
 * its months. Without a mileage at the job (a job of before issue 20) the work warranty is unknown.
 */
export function warrantyLeft(terms: WarrantyTerms, mileage: number, today: string): Warranty {
	let work: WorkWarranty | null = null
	if (terms.workKm && terms.mileageAtJob !== null) {
		const untilKm = terms.mileageAtJob + terms.workKm
		const leftKm = Math.max(0, untilKm - mileage)
		work = { untilKm, leftKm, state: untilKm <= mileage ? 'expired' : leftKm <= WARRANTY_NOTICE_KM ? 'expiring' : 'valid' }
	}
	let parts: PartsWarranty | null = null
	if (terms.partsMonths) {
		const until = addMonths(terms.completedOn, terms.partsMonths)
		const daysLeft = daysBetween(today, until)
		parts = { until, daysLeft: Math.max(0, daysLeft), state: daysLeft <= 0 ? 'expired' : daysLeft <= WARRANTY_NOTICE_DAYS ? 'expiring' : 'valid' }
	}
	return { ...terms, work, parts }
}

/** Whether anything of the warranty is still running (the page lists those first). */
export const warrantyRunning = (warranty: Warranty) => [warranty.work, warranty.parts].some((part) => part && part.state !== 'expired')

/** Where a new service interval starts unless the owner says otherwise: the newest entry with a mileage (the history is newest first). */
export function lastService(history: HistoryEntry[]): { on: string; mileage: number } | null {
	const entry = history.find((item) => item.mileage !== null)
	return entry ? { on: entry.on, mileage: entry.mileage! } : null
}
