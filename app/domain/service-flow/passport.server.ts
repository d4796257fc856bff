import { randomBytes, timingSafeEqual } from 'node:crypto'
import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import { offers, serviceRecords, serviceRequests, uploads, vehicles } from '~/db/schema'
import { bindingTotal, localDay, serviceNames, valueList, vehicleLabel } from '~/db/sql'
import { type Language } from '~/i18n/config'
import { db, queryRows, transaction, type Tx } from '~/db/db.server'
import { savePreparedUpload, forgetUploads, type FormUpload } from '~/uploads/storage.server'
import { tallinnDay } from '~/utils/time'
import { FieldError, notFound } from '~/utils/errors'
import { readerLanguage } from '~/domain/messaging/emails.server'
import { NotificationType, notify } from '~/domain/messaging/notifications.server'
import { type HistoryEntry, type HistoryLine, type Warranty, type WarrantyTerms, WARRANTY_NOTICE_DAYS, warrantyLeft, warrantyRunning } from './passport'
import { type ServiceRecordInput } from './passport-schema'
import { lockOwnVehicle } from './vehicles.server'
import { fromKm, type OdometerUnit, toKm } from './vehicle-kinds'
import { offerMoves, statusLists } from './status'

/**
 * The vehicle passport (issue 20): the service history, the warranties and the private calendar
 * of a customer's vehicle. Every query names the owner: another's vehicle is "not found".
 */

const completed = offerMoves.completeJob.to

type JobRow = Omit<WarrantyTerms, 'offerId' | 'title' | 'completedOn'> & {
	id: string
	requestId: string
	on: string
	workshopName: string
	title: string[]
	lines: HistoryLine[] | null
	paidCents: number | null
	quotedCents: number
	offerPdf: string | null
	invoicePdf: string | null
	/** The job of the vehicle's present owner; one of an owner before (a transfer, decision 0123) shows no request or documents. */
	own: boolean
}

/** The vehicle's completed jobs of this marketplace (its owner's requests), as the SQL of the history and the checks reads them. */
const completedJobsOf = (vehicleId: string) =>
	sql`service_requests r join offers o on o.id = r.selected_offer_id and o.status = ${completed} and r.vehicle_id = ${vehicleId}`

export type VehiclePassport = { history: HistoryEntry[]; warranties: Warranty[] }

/**
 * The vehicle's passport, for its owner (the caller found the vehicle as the owner's): everything
 * done to it, newest first (its completed jobs with the workshop, the mileage, the offer's lines
 * and the approved extra work's, quoted and paid, the offer's PDF and the workshop's invoice; and
 * the work done elsewhere that the owner added), and each job's warranty with what is left of it
 * on `now`'s day, running ones first, expiring first among them.
 */
export async function vehiclePassport(vehicle: { id: string; ownerId: string; mileage: number }, language: Language, now = new Date()): Promise<VehiclePassport> {
	const [jobs, records] = await Promise.all([
		queryRows<JobRow>(
			db,
			sql`select o.id, r.id as "requestId", ${localDay(sql`o.completed_at`)} as "on",
			           o.mileage_at_job as "mileageAtJob", w.workshop_name as "workshopName", ${serviceNames(language)} as title,
			           (select json_agg(json_build_object('kind', l.kind, 'description', l.description, 'reference', l.reference) order by l.sort)
			            from (select ol.kind, ol.description, ol.reference, ol.position as sort from offer_lines ol where ol.offer_id = o.id
			                  union all
			                  select el.kind, el.description, el.reference, 1000 + el.position from extra_work e
			                  join extra_work_lines el on el.extra_work_id = e.id
			                  where e.offer_id = o.id and e.status in ${valueList(statusLists.bindingExtraWork)}) l) as lines,
			           o.final_price_cents as "paidCents", ${bindingTotal()} as "quotedCents",
			           o.attachment_upload_id as "offerPdf", o.invoice_upload_id as "invoicePdf",
			           o.warranty_work_km as "workKm", o.warranty_parts_months as "partsMonths",
			           r.customer_id = ${vehicle.ownerId} as own
			    from ${completedJobsOf(vehicle.id)}
			    join workshops w on w.id = o.workshop_id`,
		),
		db
			.select({
				id: serviceRecords.id,
				on: serviceRecords.performedOn,
				mileage: serviceRecords.mileage,
				description: serviceRecords.description,
				workshopName: serviceRecords.workshopName,
				priceCents: serviceRecords.priceCents,
				documentUploadId: serviceRecords.documentUploadId,
				documentOwnerId: uploads.ownerId,
			})
			.from(serviceRecords)
			.innerJoin(vehicles, eq(vehicles.id, serviceRecords.vehicleId))
			.leftJoin(uploads, eq(uploads.id, serviceRecords.documentUploadId))
			.where(and(eq(serviceRecords.vehicleId, vehicle.id), eq(vehicles.ownerId, vehicle.ownerId))),
	])
	const history: HistoryEntry[] = [
		...jobs.map((job) => ({
			id: job.id,
			source: 'job' as const,
			on: job.on,
			mileage: job.mileageAtJob,
			workshopName: job.workshopName,
			title: job.title.join(', '),
			lines: job.lines ?? [],
			paidCents: job.paidCents,
			quotedCents: job.quotedCents,
			// A job of an owner before: the work goes with the car, that owner's papers and request stay theirs.
			offerPdf: job.own ? job.offerPdf : null,
			invoicePdf: job.own ? job.invoicePdf : null,
			documentPdf: null,
			requestId: job.own ? job.requestId : null,
		})),
		...records.map((record) => ({
			id: record.id,
			source: 'record' as const,
			on: record.on,
			mileage: record.mileage,
			workshopName: record.workshopName,
			title: record.description,
			lines: [],
			paidCents: record.priceCents,
			quotedCents: null,
			offerPdf: null,
			invoicePdf: null,
			// A document an owner before added (an invoice with their name) stays theirs (decision 0123).
			documentPdf: record.documentOwnerId === vehicle.ownerId ? record.documentUploadId : null,
			requestId: null,
		})),
	].sort((a, b) => b.on.localeCompare(a.on) || (b.mileage ?? 0) - (a.mileage ?? 0))

	const today = tallinnDay(now)
	const urgency = (warranty: Warranty) =>
		!warrantyRunning(warranty) ? 2 : [warranty.work, warranty.parts].some((part) => part?.state === 'expiring') ? 0 : 1
	const warranties = jobs
		.filter((job) => job.workKm !== null || job.partsMonths !== null)
		.map((job) =>
			warrantyLeft(
				{ offerId: job.id, workshopName: job.workshopName, title: job.title.join(', '), completedOn: job.on, mileageAtJob: job.mileageAtJob, workKm: job.workKm, partsMonths: job.partsMonths },
				vehicle.mileage,
				today,
			),
		)
		.sort((a, b) => urgency(a) - urgency(b) || b.completedOn.localeCompare(a.completedOn))
	return { history, warranties }
}

/**
 * The mileage of work done on `day` fits the history: not below what was recorded on an earlier
 * day, not above what was recorded on a later one (a job's mileage, another record's). A record of
 * today may pass the vehicle's mileage, which then follows it.
 */
async function assertMileageFits(tx: Tx, vehicleId: string, day: string, mileage: number, vehicle: { mileage: number; odometerUnit: OdometerUnit }) {
	const vehicleMileage = vehicle.mileage
	// The message names the reading in the unit the owner typed it in.
	const reading = (km: number) => ({ mileage: fromKm(km, vehicle.odometerUnit) })
	const [bounds] = await queryRows<{ below: number | null; above: number | null }>(
		tx,
		sql`select max(m) filter (where d < ${day}::date) as below, min(m) filter (where d > ${day}::date) as above
		    from (select s.performed_on as d, s.mileage as m from service_records s where s.vehicle_id = ${vehicleId}
		          union all
		          select ${localDay(sql`o.completed_at`)}::date, o.mileage_at_job from ${completedJobsOf(vehicleId)} where o.mileage_at_job is not null) h`,
	)
	if (bounds?.below !== null && bounds?.below !== undefined && mileage < bounds.below)
		throw new FieldError('mileage', `customer:passport.mileageBelow.${vehicle.odometerUnit}`, 422, reading(bounds.below))
	const ceiling = bounds?.above ?? (day < tallinnDay() ? vehicleMileage : null)
	if (ceiling !== null && mileage > ceiling) throw new FieldError('mileage', `customer:passport.mileageAbove.${vehicle.odometerUnit}`, 422, reading(ceiling))
}

/** Adds work done elsewhere to the vehicle's history, with its PDF; the vehicle's mileage follows a newer one. */
export async function addServiceRecord(ownerId: string, vehicleId: string, input: ServiceRecordInput, document: FormUpload | null): Promise<string> {
	return transaction(async (tx) => {
		const vehicle = await lockOwnVehicle(tx, ownerId, vehicleId)
		// Typed in the vehicle's unit, kept in km (decision 0122).
		const mileage = toKm(input.mileage, vehicle.odometerUnit)
		await assertMileageFits(tx, vehicleId, input.performedOn, mileage, vehicle)
		const upload = document ? await savePreparedUpload(tx, document, ownerId) : null
		const [row] = await tx
			.insert(serviceRecords)
			.values({
				vehicleId,
				performedOn: input.performedOn,
				mileage,
				description: input.description,
				workshopName: input.workshopName ?? '',
				priceCents: input.price ?? null,
				documentUploadId: upload?.id ?? null,
			})
			.returning({ id: serviceRecords.id })
		if (mileage > vehicle.mileage) await tx.update(vehicles).set({ mileage }).where(eq(vehicles.id, vehicleId))
		return row!.id
	})
}

/** Removes a record the owner added (and its PDF); the jobs of the marketplace stay. */
export async function deleteServiceRecord(ownerId: string, vehicleId: string, recordId: string) {
	await transaction(async (tx) => {
		await lockOwnVehicle(tx, ownerId, vehicleId)
		const [removed] = await tx
			.delete(serviceRecords)
			.where(and(eq(serviceRecords.id, recordId), eq(serviceRecords.vehicleId, vehicleId)))
			.returning({ documentUploadId: serviceRecords.documentUploadId })
		if (!removed) throw notFound()
		await forgetUploads(tx, [removed.documentUploadId])
	})
}

// ------------------------------------------------------------------ the private links

/**
 * The vehicle's private links (issue 20): its calendar, for the owner's phone, and its history, a
 * read-only PDF for a buyer. Each is a random 192-bit token in its own column.
 */
export type VehicleLink = 'calendar' | 'history'
const linkSql = { calendar: sql`v.calendar_token`, history: sql`v.history_token` } as const

/** A link's token: a new one (the old link stops working), or none. */
export async function setVehicleLink(ownerId: string, vehicleId: string, link: VehicleLink, action: 'make' | 'revoke'): Promise<string | null> {
	const token = action === 'make' ? randomBytes(24).toString('base64url') : null
	const [row] = await db
		.update(vehicles)
		.set(link === 'calendar' ? { calendarToken: token } : { historyToken: token })
		.where(and(eq(vehicles.id, vehicleId), eq(vehicles.ownerId, ownerId), isNull(vehicles.deletedAt)))
		.returning({ id: vehicles.id })
	if (!row) throw notFound()
	return token
}

export type LinkedVehicle = {
	id: string
	ownerId: string
	label: string
	name: string
	registrationNumber: string
	vin: string | null
	vehicleYear: number | null
	mileage: number
	odometerUnit: OdometerUnit
	language: Language
}

/**
 * The vehicle a calendar or history is asked of: by its owner (signed in), or by anyone with that
 * link's token (a phone's calendar, a buyer). Anyone else, a wrong or revoked token: "not found".
 */
export async function linkedVehicle(vehicleId: string, link: VehicleLink, viewer: { userId: string | null; token: string | null }): Promise<LinkedVehicle> {
	const [row] = await queryRows<Omit<LinkedVehicle, 'language'> & { language: string | null; token: string | null }>(
		db,
		sql`select v.id, v.owner_id as "ownerId", ${vehicleLabel('registration')} as label, ${vehicleLabel('model')} as name,
		           v.registration_number as "registrationNumber", v.vin, v.vehicle_year as "vehicleYear",
		           v.mileage, v.odometer_unit as "odometerUnit", u.preferred_language as language, ${linkSql[link]} as token
		    from vehicles v join car_brands b on b.id = v.brand_id join users u on u.id = v.owner_id
		    where v.id = ${vehicleId} and v.deleted_at is null`,
	)
	if (!row) throw notFound()
	const byOwner = viewer.userId !== null && viewer.userId === row.ownerId
	if (!byOwner && !sameToken(viewer.token, row.token)) throw notFound()
	const { token: _token, ...vehicle } = row
	return { ...vehicle, language: readerLanguage(row.language) }
}

/** A token as given against the stored one, in constant time (no answer's timing tells how much of it was right). */
function sameToken(given: string | null, stored: string | null) {
	if (!given || !stored) return false
	const [a, b] = [Buffer.from(given), Buffer.from(stored)]
	return a.length === b.length && timingSafeEqual(a, b)
}

// ------------------------------------------------------------------ the history shared on a request

/**
 * The owner lets the workshops that see a request see the vehicle's history, or stops it (decision
 * 0104). Any time: it is the owner's choice, whatever the request's status.
 */
export async function shareHistoryOnRequest(customerId: string, requestId: string, share: boolean) {
	const [row] = await db
		.update(serviceRequests)
		.set({ shareHistory: share })
		.where(and(eq(serviceRequests.id, requestId), eq(serviceRequests.customerId, customerId)))
		.returning({ id: serviceRequests.id })
	if (!row) throw notFound()
}

/**
 * The vehicle's history as a workshop sees it on a request, if its owner shared it there (null if
 * not): what was done, when, where and at what mileage; no prices and no documents, which stay the
 * owner's. The caller found the request as one the workshop may see (getRequestForWorkshop).
 */
export async function sharedHistory(
	request: { customerId: string; shareHistory: boolean; vehicle: { id: string; mileage: number } },
	language: Language,
): Promise<HistoryEntry[] | null> {
	if (!request.shareHistory) return null
	const { history } = await vehiclePassport({ id: request.vehicle.id, ownerId: request.customerId, mileage: request.vehicle.mileage }, language)
	return history.map((entry) => ({ ...entry, paidCents: null, quotedCents: null, offerPdf: null, invoicePdf: null, documentPdf: null, requestId: null }))
}

// ------------------------------------------------------------------ warranty notices

/**
 * A parts warranty that ends within WARRANTY_NOTICE_DAYS is told to the vehicle's owner once, by
 * the bell and e-mail. A work warranty ends at a mileage, which no clock can foresee: the page
 * shows it as expiring instead (docs/decisions/0101). `now` lets tests move the clock.
 */
export async function sendWarrantyNotices(now = new Date()): Promise<number> {
	return transaction(async (tx) => {
		const due = await queryRows<{ offerId: string; userId: string; vehicleId: string; workshop: string; vehicle: string; until: string }>(
			tx,
			sql`select o.id as "offerId", v.owner_id as "userId", v.id as "vehicleId", w.workshop_name as workshop,
			           ${vehicleLabel('registration')} as vehicle,
			           to_char(${localDay(sql`o.completed_at`)}::date + make_interval(months => o.warranty_parts_months), 'YYYY-MM-DD') as until
			    from offers o
			    join service_requests r on r.selected_offer_id = o.id
			    join vehicles v on v.id = r.vehicle_id and v.deleted_at is null
			    join car_brands b on b.id = v.brand_id
			    join users u on u.id = v.owner_id and not u.blocked
			    join workshops w on w.id = o.workshop_id
			    where o.warranty_parts_months is not null and o.warranty_notice_at is null and o.status = ${completed}
			      and o.completed_at + make_interval(months => o.warranty_parts_months) <= ${now}::timestamptz + make_interval(days => ${WARRANTY_NOTICE_DAYS})
			      and o.completed_at + make_interval(months => o.warranty_parts_months) > ${now}::timestamptz
			    for update of o skip locked`,
		)
		if (!due.length) return 0
		await notify(
			tx,
			due.map((row) => ({
				userId: row.userId,
				type: NotificationType.dialog,
				messageKey: 'notifications.warrantyEnding',
				messageParams: { workshop: row.workshop, vehicle: row.vehicle, untilDay: row.until },
				receivedId: row.vehicleId,
			})),
		)
		await tx
			.update(offers)
			.set({ warrantyNoticeAt: now })
			.where(inArray(offers.id, due.map((row) => row.offerId)))
		return due.length
	})
}
