import { and, eq, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm'
import {
	auditLog,
	chatMessages,
	consents,
	contactMessages,
	dataExports,
	eidIdentities,
	emailOutbox,
	notifications,
	offers,
	passkeys,
	passwordResetTokens,
	webauthnChallenges,
	serviceRecords,
	serviceRequestImages,
	serviceRequests,
	uploads,
	users,
	vehicleReminders,
	vehicles,
	workshopPhotos,
	workshops,
} from '~/db/schema'
import { LOG_IN_ACTIONS, writeAudit } from '~/domain/admin/audit.server'
import { stopRenewals } from '~/domain/billing/subscription.server'
import { forgetWorkshopCounts } from '~/domain/directory/workshops.server'
import { DomainError, FieldError, notFound, tooManyAttempts } from '~/utils/errors'
import { letter } from '~/domain/messaging/email-templates.server'
import { readerLanguage, sendEmail } from '~/domain/messaging/emails.server'
import { deleteOffer } from '~/domain/service-flow/offer-moves.server'
import { cancelRequest } from '~/domain/service-flow/request-moves.server'
import { canRequest, hasChosenWorkshop, statusLists } from '~/domain/service-flow/status'
import { getFixedT } from '~/i18n/i18n.server'
import { endSessions } from '~/utils/auth.server'
import { db, transaction, type DbOrTx } from '~/db/db.server'
import { verifyPassword } from '~/utils/password.server'
import { hitRateLimit, undoRateLimitHit } from '~/utils/rate-limit.server'
import { forgetUploads } from '~/uploads/storage.server'

/**
 * Deleting an account (issue 21, decision 0111). What is the person's goes: their sessions and
 * tokens, their linked eID, names, e-mail address, phone, plates and VINs, chats, notifications, photos and files,
 * consents, reminders, contact messages and queued e-mails. What others and the law rely on stays
 * without them: a customer's reviews (shown as "Former customer"), a workshop's completed jobs in
 * its customers' histories, invoices and payments (seven years, the Accounting Act). The users row
 * stays too, emptied, so those keep their links; its e-mail address is free for a new account.
 *
 * Refused while a job is under way (a customer's chosen workshop at work, a workshop's job not
 * completed): it must be finished or cancelled first. Open requests are cancelled (their workshops
 * told) and a workshop's pending offers withdrawn with the account.
 */

/** Wrong passwords on this form, per account: as many as a login allows, then a pause. */
const PASSWORD_TRIES = { limit: 10, windowSeconds: 15 * 60 }

const wrongPassword = () => new FieldError('password', 'account:deletion.wrongPassword')

/**
 * The user deletes their own account, confirming it with their password, or, without one (an
 * account made with eID), by a confirmation of their session with their eID or a passkey in the
 * last few minutes (`confirmed`: `isRecentlyConfirmed` of app/utils/auth.server.ts, decision 0156).
 * Refusals are thrown, as every move's are: a wrong or missing password next to its field (and
 * nothing changed), too many of them (429), a job under way (409).
 */
export async function deleteOwnAccount(input: { userId: string } & ({ password: string } | { confirmed: true })) {
	if ('password' in input) {
		const key = `delete-account:${input.userId}`
		const tries = await hitRateLimit(key, PASSWORD_TRIES)
		if (!tries.allowed) throw tooManyAttempts(tries.retryAfterSeconds)
		const [user] = await db.select().from(users).where(eq(users.id, input.userId))
		if (!user || user.deletedAt) throw notFound()
		if (!(await verifyPassword(input.password, user.passwordHash))) throw wrongPassword()
		await undoRateLimitHit(key)
	} else if (input.confirmed !== true) {
		throw wrongPassword()
	}
	await transaction((tx) => eraseAccount(tx, input.userId, input.userId))
}

/**
 * An administrator deletes an account on its owner's request (audited, with the administrator as
 * the actor); their own password confirms it. An administrator's own account is not deleted here.
 */
export async function deleteAccountForUser(input: { adminId: string; userId: string; password: string }) {
	if (input.adminId === input.userId) throw new DomainError('account:deletion.notOwnAccountHere', 409)
	const [admin] = await db.select().from(users).where(eq(users.id, input.adminId))
	if (!admin || !(await verifyPassword(input.password, admin.passwordHash))) throw wrongPassword()
	await transaction((tx) => eraseAccount(tx, input.userId, input.adminId))
}

/** The deletion itself, in the caller's transaction; `actorId` is the owner or an administrator. */
async function eraseAccount(tx: DbOrTx, userId: string, actorId: string) {
	const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update')
	if (!user || user.deletedAt) throw notFound()
	if (user.role === 'admin' && actorId !== userId) throw new DomainError('account:deletion.notAnAdministrator', 409)
	if (user.role === 'admin') {
		// The portal keeps an administrator who can sign in. One such check at a time, so two
		// administrators deleting themselves together cannot each leave the other as the last.
		await tx.execute(sql`select pg_advisory_xact_lock(hashtext('autohub:last-administrator'))`)
		const [another] = await tx
			.select({ id: users.id })
			.from(users)
			.where(and(eq(users.role, 'admin'), ne(users.id, userId), isNull(users.deletedAt), eq(users.blocked, false)))
			.limit(1)
		if (!another) throw new DomainError('account:deletion.lastAdministrator', 409)
	}

	// 1. What may not be left half done: a job under way refuses; open requests and offers end.
	// The lock order (decision 0070): the vehicles first, so no request is made for one meanwhile.
	if (user.role === 'customer') {
		await tx.select({ id: vehicles.id }).from(vehicles).where(eq(vehicles.ownerId, userId)).orderBy(vehicles.id).for('update')
		await endCustomerRequests(tx, userId)
	}
	const [workshop] = await tx.select().from(workshops).where(eq(workshops.userId, userId))
	if (workshop) await endWorkshopOffers(tx, userId, workshop.id, workshop.workshopName)

	// 2. The confirmation goes to the address before it is removed, in the person's language.
	const language = readerLanguage(user.preferredLanguage)
	const t = getFixedT(language, 'account')
	await tx.delete(emailOutbox).where(sql`lower(${emailOutbox.to}) = ${user.email.toLowerCase()}`)
	const subject = t('deletion.email.subject')
	await sendEmail(tx, { to: user.email, language, subject, content: letter(subject, t('deletion.email.text', { name: user.firstName })) })

	// 3. What is the person's goes.
	await endSessions(tx, userId)
	await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId))
	// The eID's keyed hash is the person's (decision 0150): it goes, so the eID could open a new account.
	await tx.delete(eidIdentities).where(eq(eidIdentities.userId, userId))
	// So do the records of their sign-ins; what administrators changed stays in the audit log.
	await tx.delete(auditLog).where(and(eq(auditLog.actorId, userId), inArray(auditLog.action, [...LOG_IN_ACTIONS])))
	await tx.delete(passkeys).where(eq(passkeys.userId, userId))
	await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId))
	await tx.delete(notifications).where(eq(notifications.userId, userId))
	await tx.delete(consents).where(eq(consents.userId, userId))
	await tx.delete(chatMessages).where(or(eq(chatMessages.senderId, userId), eq(chatMessages.receiverId, userId)))
	await tx.delete(contactMessages).where(sql`lower(${contactMessages.email}) = ${user.email.toLowerCase()}`)
	// The export files go with their rows: the clean-up job deletes files no row names.
	await tx.delete(dataExports).where(eq(dataExports.userId, userId))
	// Files held for a form that failed.
	const held = await tx
		.select({ id: uploads.id })
		.from(uploads)
		.where(and(eq(uploads.ownerId, userId), isNotNull(uploads.heldSince)))
	await forgetUploads(
		tx,
		held.map((row) => row.id),
	)
	if (user.role === 'customer') await eraseCustomerData(tx, userId)
	if (workshop) await eraseWorkshopData(tx, workshop)

	// 4. The row stays, emptied: reviews and invoices still point at it; nobody can sign in as it.
	const now = new Date()
	await tx
		.update(users)
		.set({
			email: `deleted-${userId}@deleted.invalid`,
			passwordHash: '!deleted',
			firstName: '',
			lastName: '',
			mobile: '',
			emailPreferences: {},
			blocked: true,
			blockedAt: now,
			deletedAt: now,
		})
		.where(eq(users.id, userId))
	await writeAudit(tx, actorId, {
		action: actorId === userId ? 'user.deleteSelf' : 'user.delete',
		entityType: 'user',
		entityId: userId,
		before: { role: user.role },
		after: { deleted: true },
	})
}

async function endCustomerRequests(tx: DbOrTx, customerId: string) {
	// The lock order's requests (decision 0070), one by one in id order; no vehicle is locked here.
	const active = await tx
		.select({ id: serviceRequests.id, status: serviceRequests.status })
		.from(serviceRequests)
		.where(and(eq(serviceRequests.customerId, customerId), inArray(serviceRequests.status, statusLists.activeRequests)))
		.orderBy(serviceRequests.id)
		.for('update')
	if (active.some((request) => hasChosenWorkshop(request.status))) throw new DomainError('account:deletion.jobUnderWay', 409)
	for (const request of active) if (canRequest('cancel', request.status)) await cancelRequest(customerId, request.id, tx)
}

async function endWorkshopOffers(tx: DbOrTx, userId: string, workshopId: string, workshopName: string) {
	const [working] = await tx
		.select({ id: offers.id })
		.from(offers)
		.where(and(eq(offers.workshopId, workshopId), inArray(offers.status, statusLists.jobsUnderWay)))
		.limit(1)
	if (working) throw new DomainError('account:deletion.openJobs', 409)
	const pending = await tx
		.select({ id: offers.id })
		.from(offers)
		.where(and(eq(offers.workshopId, workshopId), inArray(offers.status, statusLists.undecidedOffers)))
		.orderBy(offers.id)
	for (const offer of pending) await deleteOffer({ workshopId, userId, workshopName }, offer.id, tx)
}

async function eraseCustomerData(tx: DbOrTx, customerId: string) {
	const owned = await tx.select({ id: vehicles.id }).from(vehicles).where(eq(vehicles.ownerId, customerId))
	const vehicleIds = owned.map((vehicle) => vehicle.id)
	if (vehicleIds.length) {
		const records = await tx
			.delete(serviceRecords)
			.where(inArray(serviceRecords.vehicleId, vehicleIds))
			.returning({ document: serviceRecords.documentUploadId })
		await forgetUploads(
			tx,
			records.map((record) => record.document),
		)
		await tx.delete(vehicleReminders).where(inArray(vehicleReminders.vehicleId, vehicleIds))
		// The plate named in the workshops' notices about these cars goes too (decision 0131).
		await tx.execute(sql`update notifications n set message_params = n.message_params - 'car'
		                     from vehicles v
		                     where v.owner_id = ${customerId} and n.message_params ->> 'car' like '%(' || v.registration_number || ')'`)
		// Plates and VINs go; the rows stay for the workshops' records of the jobs done.
		await tx
			.update(vehicles)
			.set({ registrationNumber: '—', vin: null, shortDescription: '', calendarToken: null, historyToken: null, deletedAt: sql`coalesce(${vehicles.deletedAt}, now())` })
			.where(inArray(vehicles.id, vehicleIds))
	}
	const requests = await tx.select({ id: serviceRequests.id }).from(serviceRequests).where(eq(serviceRequests.customerId, customerId))
	const requestIds = requests.map((request) => request.id)
	if (requestIds.length) {
		const images = await tx
			.select({ uploadId: serviceRequestImages.uploadId })
			.from(serviceRequestImages)
			.where(inArray(serviceRequestImages.requestId, requestIds))
		await forgetUploads(
			tx,
			images.map((image) => image.uploadId),
		)
		// Where the car was and the notes beside the job; what the job was stays with the workshop's record.
		await tx.update(serviceRequests).set({ location: '', notes: '', shareHistory: false }).where(inArray(serviceRequests.id, requestIds))
	}
}

async function eraseWorkshopData(tx: DbOrTx, workshop: typeof workshops.$inferSelect) {
	await stopRenewals(tx, workshop.id)
	const photos = await tx.select({ uploadId: workshopPhotos.uploadId }).from(workshopPhotos).where(eq(workshopPhotos.workshopId, workshop.id))
	// The business's name stays on its invoices and its customers' histories; the people behind it go.
	await tx
		.update(workshops)
		.set({ contactFirstName: '', contactLastName: '', phone: '', email: '', billingEmail: null, website: null, logoUploadId: null, warrantyDocumentUploadId: null })
		.where(eq(workshops.id, workshop.id))
	await forgetUploads(tx, [workshop.logoUploadId, workshop.warrantyDocumentUploadId, ...photos.map((photo) => photo.uploadId)])
	// Blocked with the account: the directory leaves it out, and its remembered counts are stale.
	await forgetWorkshopCounts(tx)
}
