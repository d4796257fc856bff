import { sql } from 'drizzle-orm'
import { type Language } from '~/i18n/config'
import { db, queryRows } from '~/db/db.server'
import { customerName, localizedName, monthStart, serviceNames, valueList, vehicleLabel } from '~/db/sql'
import { workshopProfileSteps } from '~/domain/directory/onboarding.server'
import { waitingExtraWork } from './extra-work.server'
import { billWaiting } from './final-bill.server'
import { listOpenRequests, type OpenRequest } from './offers.server'
import { type RequestListItem } from './requests'
import { canRequest, hasChosenWorkshop, offerMoves, statusLists } from './status'
import { type OdometerUnit } from './vehicle-kinds'

/**
 * What each role sees first (issue 3, /dashboard). Every list is one query; names of reference
 * items come in the reader's language.
 */

/** An open request as the customer's request list has it, without what only a finished one has. */
export type DashboardRequest = Omit<RequestListItem, 'workshopName' | 'finalPriceCents' | 'rating'>

export type DashboardVehicle = { id: string; registrationNumber: string; name: string; year: number | null; mileage: number; odometerUnit: OdometerUnit }

export async function customerDashboard(userId: string, language: Language) {
	const vehicles = await queryRows<DashboardVehicle>(
		db,
		sql`select v.id, v.registration_number as "registrationNumber", ${vehicleLabel('specification')} as name,
		           v.vehicle_year as year, v.mileage, v.odometer_unit as "odometerUnit"
		    from vehicles v join car_brands b on b.id = v.brand_id
		    where v.owner_id = ${userId} and v.deleted_at is null
		    order by v.created_at desc`,
	)
	const [requests, [{ everRequested } = { everRequested: false }]] = await Promise.all([
		queryRows<DashboardRequest>(
		db,
		sql`select r.id, r.status, r.created_at as "createdAt", r.preferred_at as "preferredAt", r.location,
		           ${vehicleLabel()} as vehicle, v.registration_number as "registrationNumber",
		           ${serviceNames(language)} as services,
		           (select count(*)::int from offers o where o.request_id = r.id and o.status in ${valueList(statusLists.undecidedOffers)}) as "offerCount",
		           (select min(o.price_cents)::int from offers o where o.request_id = r.id and o.status in ${valueList(statusLists.undecidedOffers)}) as "lowestPriceCents",
		           ${waitingExtraWork(sql`r.selected_offer_id`)} as "extraWorkWaiting", ${billWaiting(sql`r.selected_offer_id`)} as "billWaiting"
		    from service_requests r
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    where r.customer_id = ${userId} and r.status in ${valueList(statusLists.activeRequests)}
		    order by r.created_at desc
		    limit 20`,
		),
		// A customer who has never asked for anything is led to a first request (issue 16, onboarding).
		queryRows<{ everRequested: boolean }>(db, sql`select exists (select 1 from service_requests r where r.customer_id = ${userId}) as "everRequested"`),
	])
	return {
		vehicles,
		everRequested,
		openRequests: requests,
		awaitingDecision: requests.filter((r) => canRequest('selectOffer', r.status)),
		stats: {
			vehicles: vehicles.length,
			openRequests: requests.filter((r) => !hasChosenWorkshop(r.status)).length,
			offersWaiting: requests.reduce((sum, r) => sum + (canRequest('selectOffer', r.status) ? r.offerCount : 0), 0),
			inProgress: requests.filter((r) => hasChosenWorkshop(r.status)).length,
		},
	}
}

/** A request the workshop may bid on (the workshop's list of open requests, first page). */
export type BiddableRequest = OpenRequest

export type WorkshopJob = {
	offerId: string
	requestId: string
	customer: string
	vehicle: string
	priceCents: number
	selectedAt: string | null
	preferredAt: string
}

export async function workshopDashboard(workshopId: string, language: Language) {
	const [summary] = await queryRows<{
		ratingAverage: number
		reviewCount: number
		packageName: string | null
		pendingOffers: number
		completedThisMonth: number
		earnedThisMonthCents: number
	}>(
		db,
		sql`select w.rating_average as "ratingAverage", w.review_count as "reviewCount",
		           (select ${localizedName('p', language)} from subscriptions s join packages p on p.id = s.package_id
		            where s.workshop_id = w.id and s.status = 'active' limit 1) as "packageName",
		           (select count(*)::int from offers o where o.workshop_id = w.id and o.status in ${valueList(statusLists.undecidedOffers)}) as "pendingOffers",
		           (select count(*)::int from offers o where o.workshop_id = w.id and o.status = ${offerMoves.completeJob.to}
		              and o.completed_at >= ${monthStart}) as "completedThisMonth",
		           (select coalesce(sum(coalesce(o.final_price_cents, o.price_cents)), 0)::int from offers o
		            where o.workshop_id = w.id and o.status = ${offerMoves.completeJob.to}
		              and o.completed_at >= ${monthStart}) as "earnedThisMonthCents"
		    from workshops w where w.id = ${workshopId}`,
	)
	const [{ items: newRequests }, jobs, profile] = await Promise.all([
		// The newest ten open requests for its services that it has not bid on yet.
		listOpenRequests(workshopId, language, { pageSize: 10 }),
		queryRows<WorkshopJob>(
		db,
		sql`select o.id as "offerId", r.id as "requestId", ${customerName(language)} as customer,
		           ${vehicleLabel('registration')} as vehicle,
		           o.price_cents as "priceCents", o.selected_at as "selectedAt", r.preferred_at as "preferredAt"
		    from offers o
		    join service_requests r on r.id = o.request_id
		    join users u on u.id = r.customer_id
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    where o.workshop_id = ${workshopId} and o.status in ${valueList(statusLists.jobsUnderWay)}
		    order by r.preferred_at`,
		),
		workshopProfileSteps(workshopId),
	])
	return {
		summary: summary ?? {
			ratingAverage: 0,
			reviewCount: 0,
			packageName: null,
			pendingOffers: 0,
			completedThisMonth: 0,
			earnedThisMonthCents: 0,
		},
		newRequests,
		jobs,
		profile,
	}
}

export async function adminDashboard() {
	const [counts] = await queryRows<{
		customers: number
		workshops: number
		openRequests: number
		offersThisMonth: number
		unhandledMessages: number
	}>(
		db,
		sql`select (select count(*)::int from users where role = 'customer') as customers,
		           (select count(*)::int from users where role = 'workshop') as workshops,
		           (select count(*)::int from service_requests where status in ${valueList(statusLists.openRequests)}) as "openRequests",
		           (select count(*)::int from offers where created_at >= ${monthStart}) as "offersThisMonth",
		           (select count(*)::int from contact_messages where handled_at is null) as "unhandledMessages"`,
	)
	return counts!
}
