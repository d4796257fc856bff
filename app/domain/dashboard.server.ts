import { sql, type SQL } from 'drizzle-orm'
import { type Language } from '~/i18n/config'
import { db, queryRows } from '~/utils/db.server'

/**
 * What each role sees first (issue 3, /dashboard). Every list is one query; names of reference
 * items come in the reader's language.
 */

const nameColumn = (alias: string, language: Language): SQL => sql.raw(`${alias}.name_${language}`)

export type DashboardRequest = {
	id: string
	status: 'pending' | 'offer' | 'in_progress' | 'completed' | 'cancelled'
	createdAt: string
	preferredAt: string
	location: string
	vehicle: string
	registrationNumber: string
	services: string[]
	offerCount: number
	lowestPriceCents: number | null
}

export type DashboardVehicle = { id: string; registrationNumber: string; name: string; year: number | null; mileage: number }

export async function customerDashboard(userId: string, language: Language) {
	const vehicles = await queryRows<DashboardVehicle>(
		db,
		sql`select v.id, v.registration_number as "registrationNumber", b.name_en || ' ' || v.model || ' ' || v.model_specification as name,
		           v.vehicle_year as year, v.mileage
		    from vehicles v join car_brands b on b.id = v.brand_id
		    where v.owner_id = ${userId} and v.deleted_at is null
		    order by v.created_at desc`,
	)
	const requests = await queryRows<DashboardRequest>(
		db,
		sql`select r.id, r.status, r.created_at as "createdAt", r.preferred_at as "preferredAt", r.location,
		           b.name_en || ' ' || v.model as vehicle, v.registration_number as "registrationNumber",
		           coalesce((select array_agg(${nameColumn('s', language)} order by s.sort_order)
		                     from service_request_services rs join services s on s.id = rs.service_id
		                     where rs.request_id = r.id), '{}') as services,
		           (select count(*)::int from offers o where o.request_id = r.id and o.status = 'pending') as "offerCount",
		           (select min(o.price_cents)::int from offers o where o.request_id = r.id and o.status = 'pending') as "lowestPriceCents"
		    from service_requests r
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    where r.customer_id = ${userId} and r.status in ('pending', 'offer', 'in_progress')
		    order by r.created_at desc
		    limit 20`,
	)
	return {
		vehicles,
		openRequests: requests,
		awaitingDecision: requests.filter((r) => r.status === 'offer'),
		stats: {
			vehicles: vehicles.length,
			openRequests: requests.filter((r) => r.status !== 'in_progress').length,
			offersWaiting: requests.reduce((sum, r) => sum + (r.status === 'offer' ? r.offerCount : 0), 0),
			inProgress: requests.filter((r) => r.status === 'in_progress').length,
		},
	}
}

export type BiddableRequest = {
	id: string
	createdAt: string
	preferredAt: string
	location: string
	city: string | null
	vehicle: string
	year: number | null
	services: string[]
	offerCount: number
}

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
		           (select ${nameColumn('p', language)} from subscriptions s join packages p on p.id = s.package_id
		            where s.workshop_id = w.id and s.status = 'active' limit 1) as "packageName",
		           (select count(*)::int from offers o where o.workshop_id = w.id and o.status = 'pending') as "pendingOffers",
		           (select count(*)::int from offers o where o.workshop_id = w.id and o.status = 'job_completed'
		              and o.completed_at >= date_trunc('month', now())) as "completedThisMonth",
		           (select coalesce(sum(coalesce(o.final_price_cents, o.price_cents)), 0)::int from offers o
		            where o.workshop_id = w.id and o.status = 'job_completed'
		              and o.completed_at >= date_trunc('month', now())) as "earnedThisMonthCents"
		    from workshops w where w.id = ${workshopId}`,
	)
	// Open requests for at least one of the workshop's services that it has not bid on yet.
	const newRequests = await queryRows<BiddableRequest>(
		db,
		sql`select r.id, r.created_at as "createdAt", r.preferred_at as "preferredAt", r.location,
		           ${nameColumn('c', language)} as city,
		           b.name_en || ' ' || v.model as vehicle, v.vehicle_year as year,
		           coalesce((select array_agg(${nameColumn('s', language)} order by s.sort_order)
		                     from service_request_services rs join services s on s.id = rs.service_id
		                     where rs.request_id = r.id), '{}') as services,
		           (select count(*)::int from offers o where o.request_id = r.id) as "offerCount"
		    from service_requests r
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    left join cities c on c.id = r.city_id
		    where r.status in ('pending', 'offer')
		      and exists (select 1 from service_request_services rs
		                  join workshop_services ws on ws.service_id = rs.service_id and ws.workshop_id = ${workshopId}
		                  where rs.request_id = r.id)
		      and not exists (select 1 from offers o where o.request_id = r.id and o.workshop_id = ${workshopId})
		    order by r.created_at desc
		    limit 10`,
	)
	const jobs = await queryRows<WorkshopJob>(
		db,
		sql`select o.id as "offerId", r.id as "requestId", u.first_name || ' ' || u.last_name as customer,
		           b.name_en || ' ' || v.model || ' (' || v.registration_number || ')' as vehicle,
		           o.price_cents as "priceCents", o.selected_at as "selectedAt", r.preferred_at as "preferredAt"
		    from offers o
		    join service_requests r on r.id = o.request_id
		    join users u on u.id = r.customer_id
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    where o.workshop_id = ${workshopId} and o.status = 'selected'
		    order by r.preferred_at`,
	)
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
		           (select count(*)::int from service_requests where status in ('pending', 'offer')) as "openRequests",
		           (select count(*)::int from offers where created_at >= date_trunc('month', now())) as "offersThisMonth",
		           (select count(*)::int from contact_messages where handled_at is null) as "unhandledMessages"`,
	)
	return counts!
}
