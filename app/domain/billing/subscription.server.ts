import { randomUUID } from 'node:crypto'
import { and, asc, desc, eq, inArray, isNull, lte, ne, sql } from 'drizzle-orm'
import { cities, invoices, packages, payments, siteSettings, subscriptions, users, workshops, type InvoiceParty } from '~/db/schema'
import { type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { db, queryRows, type DbOrTx, transaction } from '~/utils/db.server'
import { letter } from '~/domain/messaging/email-templates.server'
import { sendEmail } from '~/domain/messaging/emails.server'
import { getEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { formatMoney } from '~/utils/money'
import { encodeId } from '~/utils/public-id'
import { storeUpload } from '~/utils/storage.server'
import { uploadUrl } from '~/utils/upload-url'
import { DomainError, FieldError, notFound } from '~/domain/errors'
import { offerAllowance } from '~/domain/service-flow/offers.server'
import { NotificationType, notify } from '~/domain/messaging/notifications.server'
import { currentProvider, getStripe, providerNamed, stripeConfigured, type PaymentProvider, type ProviderName } from './payments.server'
import { eInvoiceOf } from './e-invoice.server'
import { BILLING_EMAIL_REQUIRED, canSubscribeTo, eInvoicePath, type BillingDetails, type InvoiceView, type OfferAllowance, type PackageView } from './subscription'

/**
 * A workshop's subscription (spec §1, §3, §8; docs/decisions/0060-payments.md, 0061-invoices.md).
 *
 *   free package     active at once, no end (registration starts every workshop on it)
 *   paid package     pending_payment → active for one month when its payment is activated,
 *                    then renewed month by month, or expired back to the free package when a
 *                    renewal fails or the workshop cancelled (it stays until its period ends)
 *
 * A payment is activated once, under a row lock on the payment keyed by the provider's reference
 * (unique), so a provider calling twice changes nothing the second time.
 */

type Tx = DbOrTx

/** Stripe may report a renewal a little after the period ended; wait this long before expiring. */
const EXTERNAL_RENEWAL_GRACE_MS = 2 * 24 * 60 * 60 * 1000

const nameOf = (pkg: typeof packages.$inferSelect, language: Language) =>
	language === 'en' ? pkg.nameEn : language === 'ru' ? pkg.nameRu : pkg.nameEt
const descriptionOf = (pkg: typeof packages.$inferSelect, language: Language) =>
	language === 'en' ? pkg.descriptionEn : language === 'ru' ? pkg.descriptionRu : pkg.descriptionEt

/** One calendar month later (31 January → 28/29 February), in UTC. */
export function addMonth(date: Date) {
	const next = new Date(date)
	const day = next.getUTCDate()
	next.setUTCDate(1)
	next.setUTCMonth(next.getUTCMonth() + 1)
	const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate()
	next.setUTCDate(Math.min(day, lastDay))
	return next
}

/** VAT in basis points: VAT_RATE_PERCENT when set, else the site settings' rate, else 24 %. */
async function vatRateBasisPoints(tx: Tx) {
	const fromEnv = getEnv().VAT_RATE_PERCENT
	if (fromEnv !== undefined) return Math.round(fromEnv * 100)
	const [row] = await tx.select({ rate: siteSettings.vatRateBasisPoints }).from(siteSettings).where(eq(siteSettings.id, true))
	return row?.rate ?? 2400
}

export async function priceWithVat(tx: Tx, netCents: number) {
	const rate = await vatRateBasisPoints(tx)
	const vat = Math.round((netCents * rate) / 10_000)
	return { netCents, rate, vatCents: vat, totalCents: netCents + vat }
}

// ------------------------------------------------------------------ the page

/**
 * A workshop's offers this month against its package's limit, and, when it has one, the package
 * that lifts it (the notice on the workshop's request pages).
 */
export async function offerAllowanceNotice(workshopId: string, language: Language): Promise<OfferAllowance> {
	const allowance = await offerAllowance(workshopId)
	return { ...allowance, upgradeTo: allowance.limit === null ? null : await unlimitedPackageName(language) }
}

/**
 * The name of the package that lifts the monthly offer limit (the cheapest unlimited one), as the
 * packages table has it: "More with …" says the one name the subscription page shows.
 */
export async function unlimitedPackageName(language: Language): Promise<string | null> {
	const [pkg] = await db
		.select()
		.from(packages)
		.where(and(eq(packages.active, true), isNull(packages.offersPerMonth)))
		.orderBy(asc(packages.priceCents))
		.limit(1)
	return pkg ? nameOf(pkg, language) : null
}

export type SubscriptionPage = {
	billingEmail: string | null
	vatNumber: string | null
	wantsEInvoice: boolean
	current: {
		packageId: string
		name: string
		isFree: boolean
		periodStart: string | null
		periodEnd: string | null
		cancelAtPeriodEnd: boolean
	} | null
	packages: PackageView[]
	invoices: InvoiceView[]
	vatRatePercent: number
}

export async function loadSubscriptionPage(workshopId: string, language: Language): Promise<SubscriptionPage> {
	const [workshop] = await db
		.select({ billingEmail: workshops.billingEmail, vatNumber: workshops.vatNumber, wantsEInvoice: workshops.wantsEInvoice })
		.from(workshops)
		.where(eq(workshops.id, workshopId))
	if (!workshop) throw notFound()
	const list = await db.select().from(packages).where(eq(packages.active, true)).orderBy(asc(packages.sortOrder), asc(packages.priceCents))
	const [current] = await db
		.select({ sub: subscriptions, pkg: packages })
		.from(subscriptions)
		.innerJoin(packages, eq(packages.id, subscriptions.packageId))
		.where(and(eq(subscriptions.workshopId, workshopId), eq(subscriptions.status, 'active')))
	const rows = await db.select().from(invoices).where(eq(invoices.workshopId, workshopId)).orderBy(desc(invoices.number))
	return {
		billingEmail: workshop.billingEmail,
		vatNumber: workshop.vatNumber,
		wantsEInvoice: workshop.wantsEInvoice,
		current: current
			? {
					packageId: encodeId(current.pkg.id),
					name: nameOf(current.pkg, language),
					isFree: current.pkg.priceCents === 0,
					periodStart: current.sub.periodStart?.toISOString() ?? null,
					periodEnd: current.sub.periodEnd?.toISOString() ?? null,
					cancelAtPeriodEnd: current.sub.cancelAtPeriodEnd,
				}
			: null,
		packages: list.map((pkg) => ({
			id: encodeId(pkg.id),
			code: pkg.code,
			name: nameOf(pkg, language),
			description: descriptionOf(pkg, language),
			priceCents: pkg.priceCents,
			currency: pkg.currency,
			offersPerMonth: pkg.offersPerMonth,
			featured: pkg.featured,
			isFree: pkg.priceCents === 0,
			isCurrent: current?.pkg.id === pkg.id,
			canChoose: canSubscribeTo(current && { packageId: current.pkg.id, cancelAtPeriodEnd: current.sub.cancelAtPeriodEnd }, pkg.id),
		})),
		invoices: rows.map((row) => ({
			id: encodeId(row.id),
			number: row.number,
			packageName: row.packageName,
			periodStart: row.periodStart.toISOString(),
			periodEnd: row.periodEnd.toISOString(),
			totalCents: row.totalCents,
			currency: row.currency,
			createdAt: row.createdAt.toISOString(),
			downloadUrl: row.pdfUploadId ? uploadUrl(row.pdfUploadId) : null,
			eInvoiceUrl: eInvoicePath(row.number),
		})),
		vatRatePercent: (await vatRateBasisPoints(db)) / 100,
	}
}


/** The billing details form: the billing e-mail, the VAT number the invoices print, e-invoices wanted or not. */
export async function saveBillingDetails(workshopId: string, details: BillingDetails) {
	await db
		.update(workshops)
		.set({ billingEmail: details.billingEmail, vatNumber: details.vatNumber, wantsEInvoice: details.wantsEInvoice })
		.where(eq(workshops.id, workshopId))
}

// ------------------------------------------------------------------ subscribing

export type SubscribeOutcome =
	| { kind: 'free' }
	/** Was on a paid package: it runs to the end of its period, then the free package. */
	| { kind: 'freeAfterPeriod'; periodEnd: Date }
	/** Was cancelled and chose the same package again: it simply goes on. */
	| { kind: 'resumed' }
	| { kind: 'checkout'; url: string }

/** The workshop chose a package on /subscription. */
export async function subscribe(workshopId: string, packageId: string, provider: PaymentProvider = currentProvider()): Promise<SubscribeOutcome> {
	const [row] = await db
		.select({ billingEmail: workshops.billingEmail })
		.from(workshops)
		.where(eq(workshops.id, workshopId))
	if (!row) throw notFound()
	// A refusal about the billing e-mail field: the page shows it there, not above the packages.
	if (!row.billingEmail) throw new FieldError('billingEmail', BILLING_EMAIL_REQUIRED)
	const [pkg] = await db.select().from(packages).where(and(eq(packages.id, packageId), eq(packages.active, true)))
	if (!pkg) throw notFound()
	const billingEmail = row.billingEmail

	if (pkg.priceCents === 0) return subscribeFree(workshopId, pkg.id)

	const [current] = await db
		.select()
		.from(subscriptions)
		.where(and(eq(subscriptions.workshopId, workshopId), eq(subscriptions.status, 'active')))
	if (current?.packageId === pkg.id) {
		if (!canSubscribeTo(current, pkg.id)) throw new DomainError('billing:errors.alreadySubscribed', 409)
		// Under the row lock, and only while the paid period runs: the renewal job may be ending it.
		const resumed = await transaction(async (tx) => {
			await lockWorkshop(tx, workshopId)
			const [locked] = await tx.select().from(subscriptions).where(eq(subscriptions.id, current.id)).for('update')
			if (!locked || locked.status !== 'active' || !locked.cancelAtPeriodEnd || !locked.periodEnd || locked.periodEnd <= new Date()) return false
			if (locked.provider) await providerNamed(locked.provider).resume(locked.providerReference)
			await tx.update(subscriptions).set({ cancelAtPeriodEnd: false }).where(eq(subscriptions.id, locked.id))
			return true
		})
		if (resumed) return { kind: 'resumed' }
	}

	const price = await priceWithVat(db, pkg.priceCents)
	const subscriptionId = randomUUID()
	const paymentId = randomUUID()
	// The provider is asked first (Stripe is a network call, kept out of the transaction).
	const checkout = await provider.startCheckout({
		paymentId,
		subscriptionId,
		packageName: pkg.nameEn,
		amountCents: price.totalCents,
		currency: pkg.currency,
		customerEmail: billingEmail,
	})
	const dropped = await transaction(async (tx) => {
		await lockWorkshop(tx, workshopId)
		// An earlier checkout that was never paid is dropped: only the newest one can be activated.
		const stale = await tx
			.update(subscriptions)
			.set({ status: 'expired' })
			.where(and(eq(subscriptions.workshopId, workshopId), eq(subscriptions.status, 'pending_payment')))
			.returning({ id: subscriptions.id })
		let droppedPayments: Array<{ provider: string; reference: string }> = []
		if (stale.length) {
			droppedPayments = await tx
				.update(payments)
				.set({ status: 'cancelled' })
				.where(and(inArray(payments.subscriptionId, stale.map((s) => s.id)), eq(payments.status, 'pending')))
				.returning({ provider: payments.provider, reference: payments.providerReference })
		}
		await tx.insert(subscriptions).values({ id: subscriptionId, workshopId, packageId: pkg.id, status: 'pending_payment', provider: provider.name })
		await tx.insert(payments).values({
			id: paymentId,
			workshopId,
			subscriptionId,
			packageId: pkg.id,
			provider: provider.name,
			providerReference: checkout.reference,
			amountCents: price.totalCents,
			currency: pkg.currency,
		})
		return droppedPayments
	})
	// The dropped checkouts are closed at the provider too, so an old tab cannot pay for nothing.
	for (const payment of dropped) {
		await (payment.provider === provider.name ? provider : providerNamed(payment.provider))
			.abandonCheckout(payment.reference)
			.catch((error: unknown) => logger.warn('could not close a replaced checkout', { reference: payment.reference, err: error }))
	}
	return { kind: 'checkout', url: checkout.url }
}

/**
 * Every billing move locks the workshop first (docs/decisions/0070-lock-order.md): its
 * subscriptions and payments after, so two moves of one workshop never wait on each other in a circle.
 */
async function lockWorkshop(tx: Tx, workshopId: string) {
	await tx.select({ id: workshops.id }).from(workshops).where(eq(workshops.id, workshopId)).for('update')
}

/** The workshop locked, then its active subscription (with its package's price), if any, locked too. */
async function lockActiveSubscription(tx: Tx, workshopId: string) {
	await lockWorkshop(tx, workshopId)
	const [current] = await tx
		.select({ sub: subscriptions, price: packages.priceCents })
		.from(subscriptions)
		.innerJoin(packages, eq(packages.id, subscriptions.packageId))
		.where(and(eq(subscriptions.workshopId, workshopId), eq(subscriptions.status, 'active')))
		.for('update', { of: subscriptions })
	return current
}

async function subscribeFree(workshopId: string, freePackageId: string): Promise<SubscribeOutcome> {
	return transaction(async (tx) => {
		const current = await lockActiveSubscription(tx, workshopId)
		if (current && current.price > 0 && current.sub.periodEnd && current.sub.periodEnd > new Date()) {
			// Cancelling keeps the paid package to the end of what was paid (spec §1).
			await cancelActive(tx, current.sub)
			return { kind: 'freeAfterPeriod', periodEnd: current.sub.periodEnd }
		}
		if (current?.sub.packageId === freePackageId) return { kind: 'free' }
		await startFree(tx, workshopId, freePackageId)
		return { kind: 'free' }
	})
}

/** Moves the workshop onto the free package now (the active subscription, if any, is replaced). */
async function startFree(tx: Tx, workshopId: string, freePackageId?: string, endedStatus: 'replaced' | 'expired' = 'replaced') {
	const freeId = freePackageId ?? (await tx.select({ id: packages.id }).from(packages).where(eq(packages.code, 'free')))[0]?.id
	const ended = await tx
		.update(subscriptions)
		.set({ status: endedStatus })
		.where(and(eq(subscriptions.workshopId, workshopId), eq(subscriptions.status, 'active')))
		.returning()
	await stopProviderBilling(ended)
	if (freeId) await tx.insert(subscriptions).values({ workshopId, packageId: freeId, status: 'active', periodStart: new Date() })
	await tx.update(workshops).set({ packageRank: 0 }).where(eq(workshops.id, workshopId))
}

/**
 * A paid subscription that ends on our side (expired, failed, replaced) must stop charging at the
 * provider as well. Inside the transaction: if the provider cannot be told, nothing is ended and
 * the renewal job tries again.
 */
async function stopProviderBilling(ended: Array<typeof subscriptions.$inferSelect>) {
	for (const sub of ended) {
		// A cancelled one was told already and ends by itself at the provider.
		if (sub.provider && sub.providerReference && !sub.cancelAtPeriodEnd) await providerNamed(sub.provider).stop(sub.providerReference)
	}
}

async function cancelActive(tx: Tx, sub: typeof subscriptions.$inferSelect) {
	await tx.update(subscriptions).set({ cancelAtPeriodEnd: true }).where(eq(subscriptions.id, sub.id))
	if (sub.provider) await providerNamed(sub.provider).cancel(sub.providerReference)
}

/** "Cancel" on /subscription: the paid package stays until its period ends. */
export async function cancelSubscription(workshopId: string) {
	await transaction(async (tx) => {
		const current = await lockActiveSubscription(tx, workshopId)
		if (!current || current.price === 0) throw new DomainError('billing:errors.nothingToCancel', 409)
		if (!current.sub.cancelAtPeriodEnd) await cancelActive(tx, current.sub)
	})
}

/**
 * A deleted workshop account (privacy/account-deletion.server.ts) is never charged again: its paid
 * package, if any, ends with the period already paid. In the caller's transaction.
 */
export async function stopRenewals(tx: Tx, workshopId: string) {
	const current = await lockActiveSubscription(tx, workshopId)
	if (current && current.price > 0 && !current.sub.cancelAtPeriodEnd) await cancelActive(tx, current.sub)
}

// ------------------------------------------------------------------ the test provider's page

export async function findPendingTestPayment(workshopId: string, paymentId: string) {
	const [row] = await db
		.select({ payment: payments, pkg: packages })
		.from(payments)
		.innerJoin(packages, eq(packages.id, payments.packageId))
		.where(and(eq(payments.id, paymentId), eq(payments.workshopId, workshopId), eq(payments.provider, 'test')))
	// `open`: it can still be paid or cancelled; `paid`: it went through.
	return row ? { ...row, open: row.payment.status === 'pending', paid: row.payment.status === 'paid' } : null
}

/** The status of one of the workshop's payments by the provider's reference (null: not theirs, or none). */
async function paymentStatusOf(workshopId: string, provider: ProviderName, reference: string) {
	const [row] = await db
		.select({ status: payments.status })
		.from(payments)
		.where(and(eq(payments.workshopId, workshopId), eq(payments.provider, provider), eq(payments.providerReference, reference)))
	return row?.status ?? null
}

/**
 * The workshop is back from Stripe Checkout. The webhook is what activates; this asks Stripe about
 * the session too, so a slow webhook does not leave the workshop waiting. Activation runs once
 * either way (docs/decisions/0060). 'unknown': not the workshop's checkout, or one Stripe does not
 * know; 'paid': active now; 'pending': not (yet) paid, or a replaced checkout paid late.
 */
export async function settleStripeReturn(workshopId: string, sessionId: string): Promise<'unknown' | 'paid' | 'pending'> {
	if (!stripeConfigured() || !/^cs_[A-Za-z0-9_]+$/.test(sessionId)) return 'unknown'
	if (!(await paymentStatusOf(workshopId, 'stripe', sessionId))) return 'unknown'
	const session = await (await getStripe()).checkout.sessions
		.retrieve(sessionId)
		.catch(() => null)
	if (!session) return 'unknown'
	if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') {
		const subscription = typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null)
		await activatePayment('stripe', session.id, { providerSubscriptionId: subscription })
		if ((await paymentStatusOf(workshopId, 'stripe', sessionId)) === 'paid') return 'paid'
	}
	return 'pending'
}

/** "Pay" on the test payment page: the same activation a provider's callback runs. */
export async function payTestPayment(workshopId: string, paymentId: string) {
	const row = await findPendingTestPayment(workshopId, paymentId)
	if (!row) throw notFound()
	return activatePayment('test', row.payment.providerReference)
}

/** "Cancel" on the test payment page: the payment and its pending subscription are dropped. */
export async function cancelTestPayment(workshopId: string, paymentId: string) {
	await transaction(async (tx) => {
		await lockWorkshop(tx, workshopId)
		const [payment] = await tx
			.select()
			.from(payments)
			.where(and(eq(payments.id, paymentId), eq(payments.workshopId, workshopId), eq(payments.provider, 'test')))
			.for('update')
		if (!payment) throw notFound()
		if (payment.status !== 'pending') return
		await tx.update(payments).set({ status: 'cancelled' }).where(eq(payments.id, payment.id))
		await tx
			.update(subscriptions)
			.set({ status: 'expired' })
			.where(and(eq(subscriptions.id, payment.subscriptionId), eq(subscriptions.status, 'pending_payment')))
	})
}

// ------------------------------------------------------------------ activation

export type ActivationOutcome =
	| { outcome: 'activated'; paymentId: string; invoiceId: string }
	/** Already activated (or cancelled) before: nothing changed. */
	| { outcome: 'duplicate'; paymentId: string }
	| { outcome: 'unknown' }

/**
 * A provider confirmed a payment: the subscription becomes active for a month (or a month
 * longer, for a renewal), the invoice is made and e-mailed. Runs once per payment.
 */
export async function activatePayment(
	provider: ProviderName,
	reference: string,
	options: { providerSubscriptionId?: string | null } = {},
): Promise<ActivationOutcome> {
	return transaction(async (tx) => {
		const [owner] = await tx
			.select({ workshopId: payments.workshopId })
			.from(payments)
			.where(and(eq(payments.provider, provider), eq(payments.providerReference, reference)))
		if (!owner) return { outcome: 'unknown' }
		await lockWorkshop(tx, owner.workshopId)
		const [payment] = await tx
			.select()
			.from(payments)
			.where(and(eq(payments.provider, provider), eq(payments.providerReference, reference)))
			.for('update')
		if (!payment) return { outcome: 'unknown' }
		if (payment.status !== 'pending') return { outcome: 'duplicate', paymentId: payment.id }
		return activateLocked(tx, payment, options)
	})
}

async function activateLocked(
	tx: Tx,
	payment: typeof payments.$inferSelect,
	options: { providerSubscriptionId?: string | null },
): Promise<ActivationOutcome> {
	// The caller holds the workshop's lock (taken first, as in every billing move).
	const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, payment.subscriptionId)).for('update')
	const [pkg] = await tx.select().from(packages).where(eq(packages.id, payment.packageId))
	if (!sub || !pkg) throw new Error(`payment ${payment.id} has no subscription or package`)
	const now = new Date()
	let periodStart: Date
	if (sub.status === 'active') {
		// A renewal: the next month follows the paid one without a gap.
		periodStart = sub.periodEnd && sub.periodEnd > now ? sub.periodEnd : (sub.periodEnd ?? now)
		const periodEnd = addMonth(periodStart)
		await tx.update(subscriptions).set({ periodEnd }).where(eq(subscriptions.id, sub.id))
	} else {
		periodStart = now
		const replaced = await tx
			.update(subscriptions)
			.set({ status: 'replaced' })
			.where(and(eq(subscriptions.workshopId, payment.workshopId), eq(subscriptions.status, 'active'), ne(subscriptions.id, sub.id)))
			.returning()
		await stopProviderBilling(replaced)
		await tx
			.update(subscriptions)
			.set({
				status: 'active',
				periodStart,
				periodEnd: addMonth(periodStart),
				cancelAtPeriodEnd: false,
				provider: payment.provider,
				providerReference: options.providerSubscriptionId ?? sub.providerReference,
			})
			.where(eq(subscriptions.id, sub.id))
	}
	await tx.update(payments).set({ status: 'paid', paidAt: now }).where(eq(payments.id, payment.id))
	await tx
		.update(workshops)
		.set({ packageRank: pkg.featured ? 1 : 0 })
		.where(eq(workshops.id, payment.workshopId))
	const invoiceId = await issueInvoice(tx, payment, pkg, periodStart, addMonth(periodStart))
	return { outcome: 'activated', paymentId: payment.id, invoiceId }
}

// ------------------------------------------------------------------ invoices

type WorkshopBuyer = {
	userId: string
	email: string
	language: Language
	companyName: string
	companyId: string
	vatNumber: string | null
	billingEmail: string | null
	wantsEInvoice: boolean
	streetName: string
	zipCode: string
	state: string
	city: string | null
}

async function buyerOf(tx: Tx, workshopId: string): Promise<WorkshopBuyer> {
	const [row] = await tx
		.select({
			userId: workshops.userId,
			email: users.email,
			language: users.preferredLanguage,
			companyName: workshops.companyName,
			companyId: workshops.companyId,
			vatNumber: workshops.vatNumber,
			billingEmail: workshops.billingEmail,
			wantsEInvoice: workshops.wantsEInvoice,
			streetName: workshops.streetName,
			zipCode: workshops.zipCode,
			state: workshops.state,
			city: cities.nameEt,
		})
		.from(workshops)
		.innerJoin(users, eq(users.id, workshops.userId))
		.leftJoin(cities, eq(cities.id, workshops.cityId))
		.where(eq(workshops.id, workshopId))
	if (!row) throw notFound()
	return { ...row, language: (row.language ?? 'et') as Language }
}

/**
 * The next invoice number: one more than the last, taken under a transaction-scoped advisory
 * lock, so numbers have no gaps (a rolled-back payment gives its number back) and two
 * activations at once cannot take the same one.
 */
async function nextInvoiceNumber(tx: Tx) {
	await tx.execute(sql`select pg_advisory_xact_lock(hashtext('autohub.invoice_number'))`)
	const [row] = await queryRows<{ n: number }>(tx, sql`select coalesce(max(number), 999)::int + 1 as n from invoices`)
	return row!.n
}

async function issueInvoice(tx: Tx, payment: typeof payments.$inferSelect, pkg: typeof packages.$inferSelect, periodStart: Date, periodEnd: Date) {
	const buyer = await buyerOf(tx, payment.workshopId)
	const [settings] = await tx.select().from(siteSettings).where(eq(siteSettings.id, true))
	const seller: InvoiceParty = {
		name: settings?.companyName || settings?.appname || 'Autohub',
		companyId: settings?.companyRegistryCode || undefined,
		vatNumber: settings?.vatNumber || undefined,
		address: settings?.siteAddressEstonian || settings?.siteAddress || '',
		email: settings?.siteEmail ?? '',
	}
	const billingEmail = buyer.billingEmail ?? buyer.email
	const buyerParty: InvoiceParty = {
		name: buyer.companyName,
		companyId: buyer.companyId,
		vatNumber: buyer.vatNumber || undefined,
		address: [buyer.streetName, [buyer.zipCode, buyer.city].filter(Boolean).join(' '), buyer.state].filter(Boolean).join(', '),
		postal: { street: buyer.streetName, postalCode: buyer.zipCode, city: buyer.city ?? '', region: buyer.state },
		email: billingEmail,
	}
	// The invoice states what was charged (a price changed later does not rewrite a renewal).
	const rate = await vatRateBasisPoints(tx)
	const netCents = Math.round((payment.amountCents * 10_000) / (10_000 + rate))
	const price = { netCents, rate, vatCents: payment.amountCents - netCents, totalCents: payment.amountCents }
	const number = await nextInvoiceNumber(tx)
	const issuedAt = new Date()
	const document = {
		number,
		issuedAt,
		seller,
		buyer: buyerParty,
		packageName: pkg.nameEt === pkg.nameEn ? pkg.nameEn : `${pkg.nameEt} / ${pkg.nameEn}`,
		periodStart,
		periodEnd,
		netCents: price.netCents,
		vatRateBasisPoints: price.rate,
		vatCents: price.vatCents,
		totalCents: price.totalCents,
		currency: pkg.currency,
	}
	// pdf-lib is loaded with the first invoice, not at start (decision 0094).
	const { renderInvoicePdf } = await import('./invoice-pdf.server')
	const pdf = await storeUpload(tx, {
		bytes: await renderInvoicePdf(document, buyer.language),
		purpose: 'invoice',
		ownerId: buyer.userId,
		originalName: `invoice-${number}.pdf`,
	})
	const { issuedAt: _issuedAt, ...stored } = document
	const [invoice] = await tx
		.insert(invoices)
		.values({
			...stored,
			workshopId: payment.workshopId,
			paymentId: payment.id,
			pdfUploadId: pdf.id,
			createdAt: issuedAt,
		})
		.returning({ id: invoices.id })
	const t = getFixedT(buyer.language, 'billing')
	const subject = t('email.invoice.subject', { number })
	const text = t('email.invoice.text', {
		company: buyer.companyName,
		number,
		package: nameOf(pkg, buyer.language),
		total: formatMoney(price.totalCents, buyer.language, pkg.currency),
		url: `${getEnv().APP_URL}/subscription?lng=${buyer.language}`,
	})
	// A workshop that wants e-invoices gets the XML beside the PDF, said before the page's link (decision 0110).
	const eInvoice = buyer.wantsEInvoice ? await eInvoiceOf(document) : null
	const content = letter(subject, text)
	if (eInvoice) content.paragraphs.splice(-1, 0, t('email.invoice.eInvoiceAttached'))
	await sendEmail(tx, {
		to: billingEmail,
		language: buyer.language,
		subject,
		content,
		attachments: [
			{ uploadId: pdf.id, filename: `invoice-${number}.pdf` },
			...(eInvoice ? [{ filename: eInvoice.filename, contentType: 'application/xml; charset=utf-8', content: eInvoice.xml }] : []),
		],
	})
	return invoice!.id
}

// ------------------------------------------------------------------ renewal and expiry

export type RenewalSummary = { renewed: number; expired: number; waiting: number }

/**
 * The renewal job (app/utils/jobs.server.ts, also `npm run jobs`): every active paid
 * subscription whose period has ended is renewed through its provider, or returns to the free
 * package when the workshop cancelled or the payment failed (with an e-mail and a notification).
 */
export async function renewDueSubscriptions(
	options: { now?: Date; providerFor?: (name: string | null) => PaymentProvider } = {},
): Promise<RenewalSummary> {
	const now = options.now ?? new Date()
	const providerFor = options.providerFor ?? providerNamed
	const due = await db
		.select({ id: subscriptions.id })
		.from(subscriptions)
		.innerJoin(packages, eq(packages.id, subscriptions.packageId))
		.where(and(eq(subscriptions.status, 'active'), lte(subscriptions.periodEnd, now), sql`${packages.priceCents} > 0`))
		.limit(200)
	const summary: RenewalSummary = { renewed: 0, expired: 0, waiting: 0 }
	for (const { id } of due) {
		try {
			const result = await renewOne(id, now, providerFor)
			summary[result]++
		} catch (error) {
			logger.error('subscription renewal failed', { subscriptionId: id, err: error })
		}
	}
	return summary
}

async function renewOne(subscriptionId: string, now: Date, providerFor: (name: string | null) => PaymentProvider) {
	// No retry: the provider may charge the card inside, and a second run would charge it twice.
	return transaction(async (tx): Promise<keyof RenewalSummary> => {
		const [owner] = await tx.select({ workshopId: subscriptions.workshopId }).from(subscriptions).where(eq(subscriptions.id, subscriptionId))
		if (!owner) return 'waiting'
		await lockWorkshop(tx, owner.workshopId)
		const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for('update')
		if (!sub || sub.status !== 'active' || !sub.periodEnd || sub.periodEnd > now) return 'waiting'
		const [pkg] = await tx.select().from(packages).where(eq(packages.id, sub.packageId))
		if (!pkg) return 'waiting'
		if (sub.cancelAtPeriodEnd || !pkg.active) {
			await expireToFree(tx, sub, 'cancelled')
			return 'expired'
		}
		const provider = providerFor(sub.provider)
		const price = await priceWithVat(tx, pkg.priceCents)
		const result = await provider.renew({ subscriptionReference: sub.providerReference, amountCents: price.totalCents, currency: pkg.currency })
		if (result.outcome === 'external') {
			if (now.getTime() - sub.periodEnd.getTime() < EXTERNAL_RENEWAL_GRACE_MS) return 'waiting'
			await expireToFree(tx, sub, 'failed')
			return 'expired'
		}
		if (result.outcome === 'failed') {
			await expireToFree(tx, sub, 'failed')
			return 'expired'
		}
		const [payment] = await tx
			.insert(payments)
			.values({
				workshopId: sub.workshopId,
				subscriptionId: sub.id,
				packageId: pkg.id,
				provider: provider.name,
				providerReference: result.reference,
				amountCents: price.totalCents,
				currency: pkg.currency,
			})
			.returning()
		await activateLocked(tx, payment!, {})
		return 'renewed'
	}, { retry: false })
}

async function expireToFree(tx: Tx, sub: typeof subscriptions.$inferSelect, reason: 'cancelled' | 'failed') {
	await startFree(tx, sub.workshopId, undefined, 'expired')
	const buyer = await buyerOf(tx, sub.workshopId)
	const key = reason === 'cancelled' ? 'ended' : 'paymentFailed'
	await notify(tx, { userId: buyer.userId, type: NotificationType.dialog, messageKey: `billing:notifications.${key}`, receivedId: sub.id })
	const t = getFixedT(buyer.language, 'billing')
	const subject = t(`email.${key}.subject`)
	const text = t(`email.${key}.text`, { company: buyer.companyName, url: `${getEnv().APP_URL}/subscription?lng=${buyer.language}` })
	await sendEmail(tx, { to: buyer.billingEmail ?? buyer.email, language: buyer.language, subject, content: letter(subject, text) })
}

// ------------------------------------------------------------------ Stripe renewals

/**
 * Stripe charged a Checkout subscription for another month (invoice.paid, billing_reason
 * subscription_cycle): recorded as a payment keyed by the Stripe invoice id and activated like
 * any other, so a repeated webhook changes nothing.
 */
export async function recordStripeRenewal(stripeSubscriptionId: string, stripeInvoiceId: string, amountCents: number): Promise<ActivationOutcome> {
	const [sub] = await db
		.select()
		.from(subscriptions)
		.where(and(eq(subscriptions.provider, 'stripe'), eq(subscriptions.providerReference, stripeSubscriptionId), eq(subscriptions.status, 'active')))
	if (!sub) {
		// Charged for a subscription we no longer run: someone must refund it.
		logger.error('Stripe charged a subscription that is not active here', { stripeSubscriptionId, stripeInvoiceId, amountCents })
		return { outcome: 'unknown' }
	}
	await db
		.insert(payments)
		.values({
			workshopId: sub.workshopId,
			subscriptionId: sub.id,
			packageId: sub.packageId,
			provider: 'stripe',
			providerReference: stripeInvoiceId,
			amountCents,
		})
		.onConflictDoNothing()
	return activatePayment('stripe', stripeInvoiceId)
}
