import { createHash, randomInt } from 'node:crypto'
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm'
import { serviceRequests, vehicles, vehicleTransfers } from '~/db/schema'
import { db, transaction, type Tx } from '~/db/db.server'
import { DomainError, FieldError, tooManyAttempts } from '~/utils/errors'
import { hitRateLimit } from '~/utils/rate-limit.server'
import { NotificationType, notify } from '~/domain/messaging/notifications.server'
import { statusLists } from './status'
import { lockOwnVehicle } from './vehicles.server'
import { TRANSFER_CODE_ALPHABET, TRANSFER_CODE_LENGTH, TRANSFER_DAYS } from './vehicle-transfer'

/**
 * A vehicle changes owner (issue 32, docs/decisions/0123). The owner (the seller) makes a one-time
 * code; the buyer claims the vehicle with it: the vehicle, its service history, reminders and
 * warranties become the buyer's. The seller's requests, offers and invoices stay the seller's (they
 * name the seller as their customer), and the buyer's passport shows the work done before without
 * the seller's papers or requests (vehiclePassport). Only the code's hash is stored.
 */

const DAY = 86_400_000
/** A buyer may try this many codes an hour: a code of ten characters out of 32 is not guessed so. */
const CLAIM_TRIES = { limit: 10, windowSeconds: 60 * 60 }

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex')

function newCode() {
	let code = ''
	for (let i = 0; i < TRANSFER_CODE_LENGTH; i++) code += TRANSFER_CODE_ALPHABET[randomInt(TRANSFER_CODE_ALPHABET.length)]
	return code
}

const open = and(isNull(vehicleTransfers.claimedAt), isNull(vehicleTransfers.revokedAt))

/** The vehicle's transfer still waiting for its buyer (the seller's page shows until when), or null. */
export async function openTransfer(ownerId: string, vehicleId: string, now = new Date()): Promise<{ expiresAt: Date } | null> {
	const [row] = await db
		.select({ expiresAt: vehicleTransfers.expiresAt })
		.from(vehicleTransfers)
		.where(and(eq(vehicleTransfers.vehicleId, vehicleId), eq(vehicleTransfers.sellerId, ownerId), open, gt(vehicleTransfers.expiresAt, now)))
	return row ?? null
}

async function assertNoOpenRequest(tx: Tx, vehicleId: string, key: string) {
	const [active] = await tx
		.select({ id: serviceRequests.id })
		.from(serviceRequests)
		.where(and(eq(serviceRequests.vehicleId, vehicleId), inArray(serviceRequests.status, statusLists.activeRequests)))
		.limit(1)
	if (active) throw new DomainError(key, 409)
}

/**
 * The owner makes a new code for the vehicle (an earlier one stops working), valid TRANSFER_DAYS.
 * Not while the vehicle has an open request: its workshops and job belong to the seller.
 * Returns the code, shown to the seller once.
 */
export async function createTransfer(ownerId: string, vehicleId: string, now = new Date()): Promise<{ code: string; expiresAt: Date }> {
	return transaction(async (tx) => {
		await lockOwnVehicle(tx, ownerId, vehicleId)
		await assertNoOpenRequest(tx, vehicleId, 'customer:transfer.hasOpenRequest')
		await tx.update(vehicleTransfers).set({ revokedAt: now }).where(and(eq(vehicleTransfers.vehicleId, vehicleId), open))
		const code = newCode()
		const expiresAt = new Date(now.getTime() + TRANSFER_DAYS * DAY)
		await tx.insert(vehicleTransfers).values({ vehicleId, sellerId: ownerId, codeHash: hashCode(code), expiresAt, createdAt: now })
		return { code, expiresAt }
	})
}

/** The owner takes the code back: it no longer works. Nothing open is no error (a second tab). */
export async function revokeTransfer(ownerId: string, vehicleId: string, now = new Date()) {
	await transaction(async (tx) => {
		await lockOwnVehicle(tx, ownerId, vehicleId)
		await tx.update(vehicleTransfers).set({ revokedAt: now }).where(and(eq(vehicleTransfers.vehicleId, vehicleId), open))
	})
}

/**
 * The buyer claims a vehicle with the seller's code: it becomes the buyer's, with its history,
 * reminders and warranties; its private links (calendar, history) are the seller's and end. A wrong,
 * revoked, expired or used code is refused and changes nothing. The claim locks the vehicle, then
 * takes the code in one statement, so of two claims at once one wins and the other finds it used. The seller is told.
 * Returns the vehicle's id.
 */
export async function claimVehicle(buyerId: string, code: string, now = new Date()): Promise<string> {
	const tries = await hitRateLimit(`vehicle-claim:${buyerId}`, CLAIM_TRIES)
	if (!tries.allowed) throw tooManyAttempts(tries.retryAfterSeconds)
	const codeHash = hashCode(code)
	return transaction(async (tx) => {
		const [candidate] = await tx.select({ vehicleId: vehicleTransfers.vehicleId }).from(vehicleTransfers).where(eq(vehicleTransfers.codeHash, codeHash))
		if (!candidate) throw await whyRefused(tx, codeHash, buyerId, now)
		// The vehicle first, then its transfer: the lock order of createTransfer and revokeTransfer.
		const [vehicle] = await tx
			.select({ ownerId: vehicles.ownerId, plate: vehicles.registrationNumber })
			.from(vehicles)
			.where(and(eq(vehicles.id, candidate.vehicleId), isNull(vehicles.deletedAt)))
			.for('update')
		const [taken] = await tx
			.update(vehicleTransfers)
			.set({ claimedAt: now, claimedBy: buyerId })
			.where(and(eq(vehicleTransfers.codeHash, codeHash), open, gt(vehicleTransfers.expiresAt, now), sql`${vehicleTransfers.sellerId} <> ${buyerId}`))
			.returning({ id: vehicleTransfers.id, vehicleId: vehicleTransfers.vehicleId, sellerId: vehicleTransfers.sellerId })
		if (!taken) throw await whyRefused(tx, codeHash, buyerId, now)
		// Removed, or no longer the seller's since the code was made: the code is worth nothing.
		if (!vehicle || vehicle.ownerId !== taken.sellerId) throw new FieldError('code', 'customer:transfer.codeWrong')
		await assertNoOpenRequest(tx, taken.vehicleId, 'customer:transfer.sellerHasOpenRequest')
		await tx
			.update(vehicles)
			.set({ ownerId: buyerId, calendarToken: null, historyToken: null, updatedAt: now })
			.where(eq(vehicles.id, taken.vehicleId))
		await notify(tx, {
			userId: taken.sellerId,
			type: NotificationType.dialog,
			messageKey: 'notifications.vehicleTransferred',
			messageParams: { vehicle: vehicle.plate },
			receivedId: taken.vehicleId,
		})
		return taken.vehicleId
	})
}

/** Why a code took nothing, as the field's error: no such code (or revoked), the buyer's own, expired, or used. */
async function whyRefused(tx: Tx, codeHash: string, buyerId: string, now: Date): Promise<FieldError> {
	const [row] = await tx
		.select({ sellerId: vehicleTransfers.sellerId, expiresAt: vehicleTransfers.expiresAt, claimedAt: vehicleTransfers.claimedAt, revokedAt: vehicleTransfers.revokedAt })
		.from(vehicleTransfers)
		.where(eq(vehicleTransfers.codeHash, codeHash))
	if (!row || row.revokedAt) return new FieldError('code', 'customer:transfer.codeWrong')
	if (row.claimedAt) return new FieldError('code', 'customer:transfer.codeUsed', 409)
	if (row.sellerId === buyerId) return new FieldError('code', 'customer:transfer.ownCode', 409)
	if (row.expiresAt <= now) return new FieldError('code', 'customer:transfer.codeExpired')
	return new FieldError('code', 'customer:transfer.codeWrong')
}
