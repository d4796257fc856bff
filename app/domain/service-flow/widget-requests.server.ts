import { createHash, randomBytes } from 'node:crypto'
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm'
import { users, vehicles, widgetRequests } from '~/db/schema'
import { db, queryRows, transaction, type Tx } from '~/db/db.server'
import { type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { portalLink, sendEmail } from '~/domain/messaging/emails.server'
import { referenceLists } from '~/domain/site/reference.server'
import { visitorHash } from '~/domain/site/visits.server'
import { holdUpload, type PreparedUpload } from '~/uploads/storage.server'
import { DomainError, FieldError } from '~/utils/errors'
import { formatDateTime } from '~/utils/format'
import { decodeId } from '~/utils/public-id'
import { tallinnDay } from '~/utils/time'
import { isDisposableEmail } from './disposable-email'
import { workshopToAsk } from './requests.server'
import { MAX_UNCONFIRMED_PER_DAY, WIDGET_REQUEST_HOURS, type WidgetRequestInput } from './widget-request'

/**
 * The "ask for an offer" widget's requests before their link is opened (issue 37, decision 0153).
 * `submitWidgetRequest` checks the request as the portal would, keeps it in `widget_requests`
 * with its photos held (nobody's, seen by nobody) and e-mails the link; nothing reaches a
 * workshop, and no account exists, until the link is opened (widget-confirm.server.ts).
 */

/** What `widget_requests.payload` keeps: the request in the portal's terms (ids, not codes). */
export type WidgetRequestPayload = {
	serviceIds: string[]
	workshopId: string | null
	alsoOthers: boolean
	car: { brandId: string; model: string; vehicleYear: number; registrationNumber: string; transmission: WidgetRequestInput['transmission']; mileage: number }
	/** ISO instant. */
	preferredAt: string
	cityId: string | null
	location: string
	details: string
	firstName: string
	lastName: string
	mobile: string
	/** The held photos, in order (uploads without an owner until the link is opened). */
	imageIds: string[]
}

export type WidgetSender = { ip: string; language: Language; partnerId: string | null }

const DAY_MS = 24 * 60 * 60 * 1000

export const hashWidgetToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** The sender's address as the daily limit knows it: salted, with the day, never the address itself. */
export const widgetSourceHash = (ip: string, now = new Date()) => visitorHash(tallinnDay(now), ip, 'widget-request')

/**
 * Checks the request beyond its schema (codes known, the workshop there, the plate free or the
 * sender's own, no throwaway address), refuses a fourth unconfirmed request of the day from the
 * address or for the e-mail (429), then keeps it with its photos and queues the confirmation
 * e-mail in the visitor's language, in one transaction. Answers the pending row's id.
 */
export async function submitWidgetRequest(input: WidgetRequestInput, images: PreparedUpload[], sender: WidgetSender, now = new Date()): Promise<string> {
	if (isDisposableEmail(input.email)) throw new FieldError('email', 'widgets:request.disposableEmail')
	const lists = await referenceLists()
	const serviceIds = [...new Set(input.services.map((code) => lists.services.idByCode.get(code.toLowerCase())))]
	if (serviceIds.some((id) => !id)) throw new FieldError('services', 'common:validation.unknownChoice')
	const brandId = lists.carBrands.idByCode.get(input.brand.toLowerCase())
	if (!brandId) throw new FieldError('brand', 'common:validation.unknownChoice')
	const cityId = input.city ? lists.cities.idByCode.get(input.city.toLowerCase()) : null
	if (cityId === undefined) throw new FieldError('city', 'common:validation.unknownChoice')
	let workshop: { id: string; name: string } | null = null
	if (input.workshopId) {
		workshop = await workshopToAsk(decodeId(input.workshopId))
		if (!workshop) throw new FieldError('workshopId', 'customer:request.unknownWorkshop')
	}
	await assertPlateFree(input.registrationNumber, input.email)

	const sourceHash = widgetSourceHash(sender.ip, now)
	const token = randomBytes(32).toString('base64url')
	return transaction(async (tx) => {
		await assertUnderDailyLimit(tx, sourceHash, input.email, now)
		const imageIds: string[] = []
		for (const image of images) imageIds.push((await holdUpload(image, null, tx)).id)
		const payload: WidgetRequestPayload = {
			serviceIds: serviceIds as string[],
			workshopId: workshop?.id ?? null,
			alsoOthers: !workshop || input.alsoOthers === 'on',
			car: { brandId, model: input.model, vehicleYear: input.vehicleYear, registrationNumber: input.registrationNumber, transmission: input.transmission, mileage: input.mileage },
			preferredAt: input.preferredAt.toISOString(),
			cityId,
			location: input.location,
			details: input.details,
			firstName: input.firstName,
			lastName: input.lastName,
			mobile: input.mobile,
			imageIds,
		}
		const [row] = await tx
			.insert(widgetRequests)
			.values({
				tokenHash: hashWidgetToken(token),
				email: input.email,
				language: sender.language,
				payload,
				workshopId: workshop?.id ?? null,
				partnerId: sender.partnerId,
				sourceHash,
				createdAt: now,
				expiresAt: new Date(now.getTime() + WIDGET_REQUEST_HOURS * 60 * 60 * 1000),
			})
			.returning({ id: widgetRequests.id })
		await sendConfirmation(tx, { token, email: input.email, language: sender.language, payload, workshop: workshop?.name ?? null })
		return row!.id
	})
}

/**
 * A plate is one live vehicle's (spec §8). Another account's is refused here, as the portal's
 * vehicle form refuses it; the sender's own (an account of the same e-mail) is the car it names.
 */
async function assertPlateFree(registrationNumber: string, email: string) {
	const [owner] = await queryRows<{ email: string }>(
		db,
		sql`select u.email from vehicles v join users u on u.id = v.owner_id
		    where v.registration_number = ${registrationNumber} and v.deleted_at is null`,
	)
	if (owner && owner.email.toLowerCase() !== email.toLowerCase()) throw new FieldError('registrationNumber', 'customer:vehicle.registrationTaken', 409)
}

/**
 * At most MAX_UNCONFIRMED_PER_DAY unconfirmed requests a day from one address (its salted hash)
 * and for one e-mail; the locks make two at once count one after the other.
 */
async function assertUnderDailyLimit(tx: Tx, sourceHash: string, email: string, now: Date) {
	await queryRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`widget-request:${sourceHash}`}))`)
	await queryRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`widget-request:${email}`}))`)
	const since = new Date(now.getTime() - DAY_MS)
	const pending = and(isNull(widgetRequests.confirmedAt), gt(widgetRequests.createdAt, since))
	for (const matches of [eq(widgetRequests.sourceHash, sourceHash), sql`lower(${widgetRequests.email}) = ${email.toLowerCase()}`]) {
		const [row] = await tx
			.select({ n: count(), oldest: sql<string>`min(${widgetRequests.createdAt})` })
			.from(widgetRequests)
			.where(and(matches, pending))
		if ((row?.n ?? 0) >= MAX_UNCONFIRMED_PER_DAY) {
			const freeAt = new Date(row!.oldest).getTime() + DAY_MS
			const minutes = Math.max(1, Math.ceil((freeAt - now.getTime()) / 60_000))
			throw new DomainError('widgets:request.tooMany', 429, { minutes, hours: Math.ceil(minutes / 60), max: MAX_UNCONFIRMED_PER_DAY })
		}
	}
}

/** The link, and what was asked, in the visitor's language: the e-mail is all they have until they open it. */
async function sendConfirmation(
	tx: Tx,
	request: { token: string; email: string; language: Language; payload: WidgetRequestPayload; workshop: string | null },
) {
	const { language, payload } = request
	const t = getFixedT(language, 'widgets')
	const lists = await referenceLists()
	const nameOf = (list: 'services' | 'carBrands', id: string) => lists[list].items[language].find((item) => item.id === id)?.name ?? ''
	const subject = t('request.email.subject')
	const url = portalLink(`/confirm-request/${request.token}`, language)
	await sendEmail(tx, {
		to: request.email,
		language,
		subject,
		content: {
			preview: t('request.email.preview'),
			heading: subject,
			paragraphs: [t('request.email.hello', { name: payload.firstName }), t('request.email.text', { hours: WIDGET_REQUEST_HOURS }), t('request.email.notYou')],
			facts: [
				{ label: t('customer:request.services'), value: payload.serviceIds.map((id) => nameOf('services', id)).join(', ') },
				{ label: t('customer:vehicle.identity'), value: `${nameOf('carBrands', payload.car.brandId)} ${payload.car.model} (${payload.car.vehicleYear}), ${payload.car.registrationNumber}` },
				{ label: t('customer:request.preferredAt'), value: formatDateTime(payload.preferredAt, language) },
				...(request.workshop ? [{ label: t('request.workshop'), value: request.workshop }] : []),
			],
			action: { label: t('request.email.action'), url },
		},
	})
}

/** Who may already own the plate: used by the confirmation to find the sender's own car. */
export async function liveVehicleByPlate(tx: Tx, registrationNumber: string) {
	const [vehicle] = await tx
		.select({ id: vehicles.id, ownerId: vehicles.ownerId, ownerEmail: users.email })
		.from(vehicles)
		.innerJoin(users, eq(users.id, vehicles.ownerId))
		.where(and(eq(vehicles.registrationNumber, registrationNumber), isNull(vehicles.deletedAt)))
		.for('update', { of: vehicles })
	return vehicle ?? null
}
