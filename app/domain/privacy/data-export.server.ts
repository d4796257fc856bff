import { PassThrough, type Readable } from 'node:stream'
import { and, asc, desc, eq, gt, inArray, isNull, notInArray, or, sql } from 'drizzle-orm'
import {
	auditLog,
	chatMessages,
	bookingChanges,
	bookings,
	consents,
	contactMessages,
	dataExports,
	eidIdentities,
	extraWork,
	extraWorkLines,
	invoices,
	notifications,
	offerLines,
	offers,
	payments,
	requestEvents,
	reviewReports,
	reviews,
	serviceRecords,
	serviceRequestImages,
	serviceRequests,
	passkeys,
	sessions,
	subscriptions,
	uploads,
	users,
	vehicleReminders,
	vehicles,
	workshopBays,
	workshopCalendars,
	workshopDaysOff,
	workshopHours,
	workshopPhotos,
	workshops,
} from '~/db/schema'
import { LOG_IN_ACTIONS, SIGN_IN_ACTION } from '~/domain/admin/audit.server'
import { notFound } from '~/utils/errors'
import { letter } from '~/domain/messaging/email-templates.server'
import { portalLink, readerLanguage, sendEmail } from '~/domain/messaging/emails.server'
import { notificationMessage } from '~/domain/messaging/notification-text.server'
import { getFixedT } from '~/i18n/i18n.server'
import { db, queryRows, transaction } from '~/db/db.server'
import { discardStaged, newStagingKey, openStoredFile, promote, writeStaged } from '~/uploads/file-store.server'
import { triggerJob } from '~/jobs/queue.server'
import { logger } from '~/utils/logger.server'
import { encodeId } from '~/utils/public-id'
import { type Upload } from '~/uploads/storage.server'

/**
 * "Download my data" (issue 21, article 15 and 20 of the GDPR; decision 0111): one ZIP with
 * `data.json` (everything the portal keeps about the person, in their words and ours) and
 * `files/` (what they uploaded, and the documents of their jobs). Made while they wait when its
 * files are small; else made by the job `data-exports`, kept for a week in the file store and
 * linked by e-mail.
 */

/** Above this many bytes of files the ZIP is made in the background. */
export const INLINE_EXPORT_MAX_BYTES = 20 * 1024 * 1024
export const EXPORT_KEEP_DAYS = 7
export const DATA_EXPORT_JOB = 'data-exports'

type ExportFile = Upload & { path: string }
export type AccountData = { data: Record<string, unknown>; files: ExportFile[] }

const extensions: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/avif': 'avif', 'application/pdf': 'pdf' }

/** Rows by one of their columns, for nesting children under their parents without a search per parent. */
function grouped<T, K extends keyof T>(rows: T[], key: K): (value: T[K]) => T[] {
	const groups = new Map<T[K], T[]>()
	for (const row of rows) {
		const group = groups.get(row[key])
		if (group) group.push(row)
		else groups.set(row[key], [row])
	}
	return (value) => groups.get(value) ?? []
}

/** A file's place in the ZIP: by purpose, its id first so two of one name never meet. */
function zipPath(row: { id: string; purpose: string; mimeType: string; originalName: string | null }) {
	const extension = extensions[row.mimeType] ?? 'bin'
	const base = (row.originalName ?? '')
		.replace(/\.[^.]*$/, '')
		.normalize('NFKD')
		.replace(/[^A-Za-z0-9_-]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60)
	return `files/${row.purpose}/${row.id.slice(0, 8)}${base ? `-${base}` : ''}.${extension}`
}

/** Everything about the user, and the files that go with it. Only the user's own rows are read. */
export async function collectAccountData(userId: string): Promise<AccountData> {
	const [user] = await db.select().from(users).where(eq(users.id, userId))
	if (!user || user.deletedAt) throw new Error('no such account')
	const language = readerLanguage(user.preferredLanguage)
	const [workshop] = await db.select().from(workshops).where(eq(workshops.userId, userId))

	const ownVehicles = await db.select().from(vehicles).where(eq(vehicles.ownerId, userId)).orderBy(asc(vehicles.createdAt))
	const vehicleIds = ownVehicles.map((vehicle) => vehicle.id)
	const records = vehicleIds.length ? await db.select().from(serviceRecords).where(inArray(serviceRecords.vehicleId, vehicleIds)) : []
	const reminders = vehicleIds.length ? await db.select().from(vehicleReminders).where(inArray(vehicleReminders.vehicleId, vehicleIds)) : []

	// A customer's requests with every offer on them; a workshop's offers with the request each answered.
	const requestRows = await db.select().from(serviceRequests).where(eq(serviceRequests.customerId, userId)).orderBy(asc(serviceRequests.createdAt))
	const ownOffers = workshop ? await db.select().from(offers).where(eq(offers.workshopId, workshop.id)).orderBy(asc(offers.createdAt)) : []
	const requestIds = requestRows.map((request) => request.id)
	const offersOnRequests = requestIds.length ? await db.select().from(offers).where(inArray(offers.requestId, requestIds)) : []
	const allOffers = [...offersOnRequests, ...ownOffers]
	const offerIds = allOffers.map((offer) => offer.id)
	const lines = offerIds.length ? await db.select().from(offerLines).where(inArray(offerLines.offerId, offerIds)).orderBy(asc(offerLines.position)) : []
	const extras = offerIds.length ? await db.select().from(extraWork).where(inArray(extraWork.offerId, offerIds)) : []
	const extraLines = extras.length
		? await db
				.select()
				.from(extraWorkLines)
				.where(
					inArray(
						extraWorkLines.extraWorkId,
						extras.map((extra) => extra.id),
					),
				)
		: []
	// Booked times (issue 33): each offer's booking with the changes proposed to it.
	const bookingRows = offerIds.length ? await db.select().from(bookings).where(inArray(bookings.offerId, offerIds)) : []
	const changeRows = bookingRows.length
		? await db
				.select()
				.from(bookingChanges)
				.where(
					inArray(
						bookingChanges.bookingId,
						bookingRows.map((booking) => booking.id),
					),
				)
		: []
	const events = requestIds.length ? await db.select().from(requestEvents).where(inArray(requestEvents.requestId, requestIds)).orderBy(asc(requestEvents.createdAt)) : []
	const images = requestIds.length ? await db.select().from(serviceRequestImages).where(inArray(serviceRequestImages.requestId, requestIds)) : []
	const answeredRequests = ownOffers.length
		? await db
				.select({ id: serviceRequests.id, details: serviceRequests.details, preferredAt: serviceRequests.preferredAt, status: serviceRequests.status })
				.from(serviceRequests)
				.where(
					inArray(
						serviceRequests.id,
						ownOffers.map((offer) => offer.requestId),
					),
				)
		: []

	const reviewRows = await db
		.select()
		.from(reviews)
		.where(workshop ? or(eq(reviews.customerId, userId), eq(reviews.workshopId, workshop.id)) : eq(reviews.customerId, userId))
		.orderBy(asc(reviews.createdAt))
	const reports = await db.select().from(reviewReports).where(eq(reviewReports.reporterId, userId))

	const counterpart = sql<string>`coalesce(nullif(w.workshop_name, ''), nullif(trim(u.first_name || ' ' || u.last_name), ''), '—')`
	const chats = await queryRows<{ sent: boolean; counterpart: string; message: string; created_at: string; read_at: string | null }>(
		db,
		sql`select m.sender_id = ${userId} as sent, ${counterpart} as counterpart, m.message, m.created_at, m.read_at
		    from ${chatMessages} m
		    join ${users} u on u.id = case when m.sender_id = ${userId} then m.receiver_id else m.sender_id end
		    left join ${workshops} w on w.user_id = u.id
		    where m.sender_id = ${userId} or m.receiver_id = ${userId}
		    order by m.created_at`,
	)
	const bell = await db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt))
	const invoiceRows = workshop ? await db.select().from(invoices).where(eq(invoices.workshopId, workshop.id)).orderBy(asc(invoices.number)) : []
	const paymentRows = workshop ? await db.select().from(payments).where(eq(payments.workshopId, workshop.id)).orderBy(asc(payments.createdAt)) : []
	const subscriptionRows = workshop ? await db.select().from(subscriptions).where(eq(subscriptions.workshopId, workshop.id)) : []
	const photos = workshop ? await db.select().from(workshopPhotos).where(eq(workshopPhotos.workshopId, workshop.id)) : []
	const calendar = workshop
		? {
				settings: (await db.select().from(workshopCalendars).where(eq(workshopCalendars.workshopId, workshop.id))).map(({ feedToken, ...settings }) => ({ ...settings, feedLinkMade: Boolean(feedToken) }))[0] ?? null,
				bays: await db.select().from(workshopBays).where(eq(workshopBays.workshopId, workshop.id)),
				hours: await db.select().from(workshopHours).where(eq(workshopHours.workshopId, workshop.id)),
				daysOff: await db.select().from(workshopDaysOff).where(eq(workshopDaysOff.workshopId, workshop.id)),
			}
		: null
	const consentRows = await db.select().from(consents).where(eq(consents.userId, userId)).orderBy(asc(consents.acceptedAt))
	const logIns = await db
		.select({ kind: sessions.kind, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt, userAgent: sessions.userAgent, signInMethod: sessions.signInMethod })
		.from(sessions)
		.where(eq(sessions.userId, userId))
		.orderBy(asc(sessions.createdAt))
	const contact = await db.select().from(contactMessages).where(sql`lower(${contactMessages.email}) = ${user.email.toLowerCase()}`)
	// A linked eID as "linked on" and its country: its keyed hash says nothing to the person, and the code is never kept (decision 0150).
	const [eid] = await db
		.select({ country: eidIdentities.country, linkedOn: eidIdentities.createdAt, lastUsedAt: eidIdentities.lastUsedAt, lastMethod: eidIdentities.lastMethod })
		.from(eidIdentities)
		.where(eq(eidIdentities.userId, userId))
	const signIns = await db
		.select({ at: auditLog.createdAt, action: auditLog.action, how: auditLog.after })
		.from(auditLog)
		.where(and(eq(auditLog.actorId, userId), inArray(auditLog.action, [...LOG_IN_ACTIONS])))
		.orderBy(asc(auditLog.createdAt))
	// Passkeys by name and dates: their keys open nothing without the device, and say nothing of the person.
	const passkeyRows = await db
		.select({ name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt, syncedBetweenDevices: passkeys.multiDevice })
		.from(passkeys)
		.where(eq(passkeys.userId, userId))
		.orderBy(asc(passkeys.createdAt))

	// The files: the person's own uploads (not those held for a form they never sent again), and
	// the documents of their jobs and invoices that others made for them.
	const documentIds = [
		...allOffers.flatMap((offer) => [offer.attachmentUploadId, offer.invoiceUploadId]),
		...invoiceRows.map((invoice) => invoice.pdfUploadId),
	].filter((id): id is string => Boolean(id))
	const fileRows = await db
		.select()
		.from(uploads)
		.where(and(isNull(uploads.heldSince), documentIds.length ? or(eq(uploads.ownerId, userId), inArray(uploads.id, documentIds)) : eq(uploads.ownerId, userId)))
		.orderBy(asc(uploads.createdAt))
	const files: ExportFile[] = fileRows.map((row) => ({ ...row, path: zipPath(row) }))
	const paths = new Map(files.map((file) => [file.id, file.path]))
	const fileOf = (id: string | null | undefined) => (id ? (paths.get(id) ?? null) : null)
	const [linesOf, extrasOf, extraLinesOf] = [grouped(lines, 'offerId'), grouped(extras, 'offerId'), grouped(extraLines, 'extraWorkId')]
	const [recordsOf, remindersOf] = [grouped(records, 'vehicleId'), grouped(reminders, 'vehicleId')]
	const [eventsOf, imagesOf, offersOf] = [grouped(events, 'requestId'), grouped(images, 'requestId'), grouped(offersOnRequests, 'requestId')]
	const answered = new Map(answeredRequests.map((request) => [request.id, request]))
	const [bookingOf, changesOf] = [grouped(bookingRows, 'offerId'), grouped(changeRows, 'bookingId')]

	const offerView = (offer: typeof offers.$inferSelect) => ({
		...offer,
		attachment: fileOf(offer.attachmentUploadId),
		invoice: fileOf(offer.invoiceUploadId),
		lines: linesOf(offer.id),
		extraWork: extrasOf(offer.id).map((extra) => ({ ...extra, lines: extraLinesOf(extra.id) })),
		booking: bookingOf(offer.id).map((booking) => ({ ...booking, changes: changesOf(booking.id) }))[0] ?? null,
	})

	const data = {
		about: getFixedT(language, 'account')('export.about'),
		exportedAt: new Date().toISOString(),
		account: {
			email: user.email,
			role: user.role,
			firstName: user.firstName,
			lastName: user.lastName,
			mobile: user.mobile,
			preferredLanguage: user.preferredLanguage,
			emailPreferences: user.emailPreferences,
			blocked: user.blocked,
			createdAt: user.createdAt,
			hasPassword: Boolean(user.passwordHash),
		},
		eid: eid ?? null,
		// A sign-in with its method and way (web, api); a confirmation (a step-up, decision 0156) with the factor it added.
		signIns: signIns.map(({ at, action, how }) => (action === SIGN_IN_ACTION ? { at, ...(how as { method?: string; via?: string } | null) } : { at, confirmed: how as { method?: string; factor?: string } | null })),
		workshop: workshop ? { ...workshop, calendar, logo: fileOf(workshop.logoUploadId), photos: photos.map((photo) => fileOf(photo.uploadId)), warrantyDocument: fileOf(workshop.warrantyDocumentUploadId) } : null,
		vehicles: ownVehicles.map(({ calendarToken, historyToken, ...vehicle }) => ({
			...vehicle,
			calendarLinkMade: Boolean(calendarToken),
			historyLinkMade: Boolean(historyToken),
			serviceRecords: recordsOf(vehicle.id).map((record) => ({ ...record, document: fileOf(record.documentUploadId) })),
			reminders: remindersOf(vehicle.id),
		})),
		serviceRequests: requestRows.map((request) => ({
			...request,
			events: eventsOf(request.id).map(({ status, createdAt }) => ({ status, createdAt })),
			images: imagesOf(request.id).map((image) => fileOf(image.uploadId)),
			offers: offersOf(request.id).map(offerView),
		})),
		offersMade: ownOffers.map((offer) => ({ ...offerView(offer), request: answered.get(offer.requestId) ?? null })),
		reviews: reviewRows.map((review) => ({ ...review, writtenByYou: review.customerId === userId })),
		reviewReports: reports,
		chatMessages: chats.map((row) => ({ sentByYou: row.sent, counterpart: row.counterpart, message: row.message, createdAt: row.created_at, readAt: row.read_at })),
		notifications: bell.map((row) => ({ text: notificationMessage(language, row.messageKey, row.messageParams), isRead: row.isRead, readAt: row.readAt, createdAt: row.createdAt })),
		subscriptions: subscriptionRows,
		payments: paymentRows,
		invoices: invoiceRows.map((invoice) => ({ ...invoice, pdf: fileOf(invoice.pdfUploadId) })),
		consents: consentRows.map(({ kind, version, language: read, acceptedAt }) => ({ kind, version, language: read, acceptedAt })),
		logIns,
		passkeys: passkeyRows,
		contactMessages: contact.map(({ name, email, message, createdAt }) => ({ name, email, message, createdAt })),
		files: files.map(({ path, purpose, mimeType, byteSize, originalName, createdAt }) => ({ path, purpose, mimeType, byteSize, originalName, createdAt })),
	}
	return { data, files }
}

export const exportBytes = (collected: AccountData) => collected.files.reduce((sum, file) => sum + file.byteSize, 0)

/**
 * The ZIP as a stream, written as it is read: data.json deflated, the files stored as they are
 * (images and PDFs are compressed already). A file missing from the store is named in
 * `missing-files.txt` rather than failing the whole export.
 */
export function exportZipStream(collected: AccountData): Readable {
	const out = new PassThrough()
	void (async () => {
		const { Zip, ZipDeflate, ZipPassThrough, strToU8 } = await import('fflate')
		const zip = new Zip((error, chunk, final) => {
			if (error) return out.destroy(error)
			out.write(chunk)
			if (final) out.end()
		})
		const drained = () => (out.writableNeedDrain ? new Promise<void>((resolve) => out.once('drain', () => resolve())) : Promise.resolve())
		const json = new ZipDeflate('data.json', { level: 6 })
		zip.add(json)
		json.push(strToU8(JSON.stringify(collected.data, null, 2)), true)
		const missing: string[] = []
		for (const file of collected.files) {
			const stored = await openStoredFile(file.storageKey).catch(() => null)
			if (!stored) {
				missing.push(file.path)
				continue
			}
			const entry = new ZipPassThrough(file.path)
			zip.add(entry)
			for await (const chunk of stored.stream()) {
				entry.push(chunk as Uint8Array)
				await drained()
			}
			entry.push(new Uint8Array(0), true)
		}
		if (missing.length) {
			const note = new ZipDeflate('missing-files.txt', { level: 6 })
			zip.add(note)
			note.push(strToU8(`${missing.join('\n')}\n`), true)
		}
		zip.end()
	})().catch((error) => out.destroy(error as Error))
	return out
}

export const exportFileName = (at = new Date()) => `autohub-data-${at.toISOString().slice(0, 10)}.zip`

/**
 * A large export is asked for: one waiting or ready within the week is reused (a second click
 * does not make a second), else a new one is queued for the job. Answers whether it is ready.
 */
export async function requestBackgroundExport(userId: string): Promise<{ id: string; ready: boolean }> {
	const now = new Date()
	const [existing] = await db
		.select()
		.from(dataExports)
		.where(and(eq(dataExports.userId, userId), gt(dataExports.expiresAt, now)))
		.orderBy(desc(dataExports.createdAt))
		.limit(1)
	if (existing && !existing.readyAt) return { id: existing.id, ready: false }
	const [created] = await db
		.insert(dataExports)
		.values({ userId, expiresAt: new Date(now.getTime() + EXPORT_KEEP_DAYS * 24 * 60 * 60 * 1000) })
		.returning({ id: dataExports.id })
	await triggerJob(DATA_EXPORT_JOB)
	return { id: created!.id, ready: false }
}

/** An export of this user's, still kept (ready or not); anyone else's or an expired one is "not found". */
export async function findExport(userId: string, exportId: string) {
	const [row] = await db
		.select()
		.from(dataExports)
		.where(and(eq(dataExports.id, exportId), eq(dataExports.userId, userId), gt(dataExports.expiresAt, new Date())))
	if (!row) throw notFound()
	return row
}

/**
 * The job: makes the waiting exports, oldest first, and e-mails each owner the link. Nothing is
 * locked while a ZIP is written (it may take a while); should two processes make the same one,
 * both write the same key and the e-mail goes once (its dedupe key). A failure is logged and the
 * export tried again on the next run.
 */
export async function makeWaitingExports(limit = 3): Promise<{ made: number; failed: number }> {
	const result = { made: 0, failed: 0 }
	const tried: string[] = []
	while (tried.length < limit) {
		const [row] = await db
			.select()
			.from(dataExports)
			.where(and(isNull(dataExports.readyAt), gt(dataExports.expiresAt, new Date()), tried.length ? notInArray(dataExports.id, tried) : undefined))
			.orderBy(asc(dataExports.createdAt))
			.limit(1)
		if (!row) break
		tried.push(row.id)
		const staged = newStagingKey('zip')
		try {
			const size = await writeStaged(staged, exportZipStream(await collectAccountData(row.userId)))
			const key = `exports/${row.id}.zip`
			await promote(staged, key, 'application/zip')
			await transaction(async (tx) => {
				const [ready] = await tx
					.update(dataExports)
					.set({ storageKey: key, byteSize: size, readyAt: new Date() })
					.where(eq(dataExports.id, row.id))
					.returning({ id: dataExports.id })
				const [user] = await tx.select().from(users).where(eq(users.id, row.userId))
				// Deleted meanwhile (the account and its exports): nothing to tell.
				if (!ready || !user || user.deletedAt) return
				const language = readerLanguage(user.preferredLanguage)
				const t = getFixedT(language, 'account')
				const subject = t('export.email.subject')
				await sendEmail(tx, {
					to: user.email,
					language,
					subject,
					dedupeKey: `data-export:${row.id}`,
					content: {
						...letter(subject, t('export.email.text', { name: user.firstName, days: EXPORT_KEEP_DAYS })),
						action: { label: t('export.email.action'), url: portalLink(`/settings/export/${encodeId(row.id)}`, language) },
					},
				})
			})
			result.made++
		} catch (error) {
			result.failed++
			logger.error('a data export could not be made', { exportId: row.id, err: error })
		} finally {
			await discardStaged([staged])
		}
	}
	if (result.made || result.failed) logger.info('data exports', result)
	return result
}
