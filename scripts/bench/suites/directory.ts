import { PgDialect } from 'drizzle-orm/pg-core'
import type pg from 'pg'
import { ratingRefresh } from '../../../app/domain/service-flow/reviews.server'
import { demoCityCounties, demoReferenceLists, type ReferenceRow } from '../../../app/db/seed/reference-data'
import { seedingSession } from '../lib/seed'
import { type BenchCase, type BenchSuite } from '../types'

/**
 * The public directory at scale (issue 4): 100,000 workshops and 1,000,000 reviews, each review
 * on a completed service request with a completed offer from a customer (3,000 customers with a
 * vehicle each, reused). Everything is generated in SQL with generate_series; ids are
 * md5('kind' || n)::uuid so the tables can be joined without lookups. Foreign-key triggers are
 * off while seeding (session_replication_role = replica): the data is consistent by construction.
 */
export const WORKSHOPS = 100_000
export const REVIEWS = 1_000_000
export const CUSTOMERS = 3_000

async function insertReferenceList(client: pg.Client, table: string, rows: ReferenceRow[]) {
	await client.query(
		`insert into ${table} (code, name_et, name_en, name_ru, sort_order)
		 select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[])`,
		[rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3]), rows.map((_, i) => i)],
	)
}

async function seed(client: pg.Client, log: (message: string) => void) {
	const step = await seedingSession(client, log)

	for (const [table, rows] of Object.entries(demoReferenceLists)) await insertReferenceList(client, table, rows)
	await client.query(`update cities set county = c.county from jsonb_each_text($1::jsonb) c(code, county) where cities.code = c.code`, [JSON.stringify(demoCityCounties)])
	await client.query(`
		insert into site_settings (appname, site_address, site_address_estonian, site_address_russian, site_email, country_code, site_phone_number)
		values ('Autohub', 'Narva Road 7, Tallinn', 'Narva mnt 7, Tallinn', 'Нарвское шоссе 7, Таллин', 'info@autohub.example', '+372', '600 1234')`)
	await client.query(`
		insert into ads (ads_type, placement, language, content, sort_order)
		select 2, 'Header', language::language, '<p><strong>Talverehvid</strong> — <a href="/workshop-list?service=tyres">Broneeri aeg</a></p>', 0
		from unnest(array['et', 'en', 'ru']) language`)

	await step(
		`${WORKSHOPS} workshop owners`,
		`insert into users (id, email, password_hash, role, first_name, last_name)
		 select md5('owner' || n)::uuid, 'owner' || n || '@bench.example', 'bench-no-login', 'workshop', 'Owner', 'No ' || n
		 from generate_series(1, ${WORKSHOPS}) n`,
	)
	// A third of the workshops in Tallinn, the rest spread over the other cities; 5 % on the paid package.
	await step(
		`${WORKSHOPS} workshops`,
		`with c as (select id, (row_number() over (order by sort_order))::int - 1 as i from cities)
		 insert into workshops (id, user_id, contact_first_name, contact_last_name, company_name, company_id, workshop_name,
		                        phone, email, website, founded_year, installers_count, state, city_id, street_name, zip_code,
		                        marketing_text, additional_services, weekday_opens, weekday_closes, saturday_opens, saturday_closes,
		                        next_free_at, next_free_checked_at, warranty_work_km, warranty_parts_months, warranty_info, package_rank, created_at, updated_at)
		 select md5('workshop' || n)::uuid, md5('owner' || n)::uuid, 'Owner', 'No ' || n, 'Company ' || n || ' OÜ',
		        lpad((1000000000 + n)::text, 10, '0'),
		        (array['Kiire','Auto','Meister','Rehvi','Mootori','Kere','Pro','Eco','Nord','Balti','Linna','Oma'])[1 + n % 12] || ' ' ||
		        (array['Autoteenindus','Autoremont','Garaaž','Töökoda','Rehvikeskus','Autokeskus','Servis','Hooldus'])[1 + (n / 12) % 8] || ' ' || n,
		        '+372 6' || lpad((n % 1000000)::text, 6, '0'), 'info@w' || n || '.example', 'https://w' || n || '.example',
		        1990 + n % 34, 1 + n % 15, 'Harju maakond', c.id, 'Tee ' || (1 + n % 200), lpad((10000 + n % 90000)::text, 5, '0'),
		        'Hooldus, remont ja rehvitööd ühest kohast. Töökoda number ' || n || ' ootab sind.', case when n % 3 = 0 then 'Asendusauto' else '' end,
		        '08:00', '17:00', case when n % 2 = 0 then '10:00'::time end, case when n % 2 = 0 then '15:00'::time end,
		        now() + (n % 10) * interval '1 day' + interval '2 hours', now(), 10000 + (n % 3) * 5000, 6 + (n % 3) * 6,
		        'Garantii kehtib arve esitamisel.', case when n % 20 = 0 then 1 else 0 end,
		        now() - (n % 2000) * interval '1 day', now() - (n % 200) * interval '1 day'
		 from generate_series(1, ${WORKSHOPS}) n
		 join c on c.i = case when n % 3 = 0 then 0 else 1 + n % ((select count(*) from cities)::int - 1) end`,
	)
	const link = (table: string, column: string, reference: string, modulo: number) =>
		step(
			`${table}`,
			`insert into ${table} (workshop_id, ${column})
			 select w.id, r.id from workshops w cross join ${reference} r
			 where abs(hashtext(w.id::text || r.code)) % ${modulo} = 0
			    or r.sort_order = abs(hashtext(w.id::text)) % (select count(*) from ${reference})`,
		)
	await link('workshop_services', 'service_id', 'services', 4)
	await link('workshop_car_brands', 'car_brand_id', 'car_brands', 3)
	await link('workshop_spare_parts', 'spare_part_id', 'spare_parts', 2)
	await link('workshop_payment_methods', 'payment_method_id', 'payment_methods', 2)

	await step(
		`${CUSTOMERS} customers`,
		`insert into users (id, email, password_hash, role, first_name, last_name)
		 select md5('customer' || k)::uuid, 'customer' || k || '@bench.example', 'bench-no-login', 'customer',
		        (array['Mari','Jaan','Kadri','Andres','Olga','Tõnu','Liis','Dmitri','Anu','Kristjan'])[1 + k % 10],
		        (array['Tamm','Saar','Mets','Ivanova','Lepp','Kuusk','Smirnov','Rebane','Põder','Kask'])[1 + (k / 10) % 10]
		 from generate_series(1, ${CUSTOMERS}) k`,
	)
	await step(
		`${CUSTOMERS} vehicles`,
		`with b as (select id, (row_number() over (order by sort_order))::int - 1 as i, count(*) over ()::int as total from car_brands)
		 insert into vehicles (id, owner_id, registration_number, brand_id, model, model_specification, transmission, mileage)
		 select md5('vehicle' || k)::uuid, md5('customer' || k)::uuid, 'B' || lpad(k::text, 5, '0'), b.id, 'Model', 'Spec', 'manual', 20000 + k * 37
		 from generate_series(1, ${CUSTOMERS}) k join b on b.i = k % b.total`,
	)
	// Which workshop each job went to: skewed, so a few workshops have hundreds of reviews and some none.
	await step(
		`${REVIEWS} jobs planned`,
		`create temporary table bench_jobs as
		 select m,
		        1 + least(${WORKSHOPS - 1}, floor(${WORKSHOPS} * power(abs(hashtext('w' || m))::float8 / 2147483648, 1.6)))::int as w,
		        1 + m % ${CUSTOMERS} as k,
		        now() - interval '10 days' - (m % 1500) * interval '1 day' - (m % 86400) * interval '1 second' as ts
		 from generate_series(1, ${REVIEWS}) m`,
	)
	await step(
		`${REVIEWS} completed service requests`,
		`insert into service_requests (id, customer_id, vehicle_id, preferred_at, location, details, status, selected_offer_id, created_at, updated_at)
		 select md5('request' || m)::uuid, md5('customer' || k)::uuid, md5('vehicle' || k)::uuid, ts + interval '2 days', 'Tallinn',
		        'Palun pakkumist.', 'completed', md5('offer' || m)::uuid, ts, ts + interval '3 days'
		 from bench_jobs`,
	)
	await step(
		`${REVIEWS} completed offers`,
		`insert into offers (id, request_id, workshop_id, price_cents, status, final_price_cents, selected_at, completed_at, created_at, updated_at)
		 select md5('offer' || m)::uuid, md5('request' || m)::uuid, md5('workshop' || w)::uuid, 5000 + (m % 400) * 100, 'job_completed',
		        5000 + (m % 400) * 100 + (m % 2) * 1500, ts + interval '1 day', ts + interval '3 days', ts + interval '4 hours', ts + interval '3 days'
		 from bench_jobs`,
	)
	await step(
		`${REVIEWS} reviews`,
		`insert into reviews (id, request_id, workshop_id, customer_id, rating, title, body, reply, replied_at, created_at, updated_at)
		 select md5('review' || m)::uuid, md5('request' || m)::uuid, md5('workshop' || w)::uuid, md5('customer' || k)::uuid,
		        greatest(1, least(5, 2 + abs(hashtext('q' || w)) % 3 + (m % 3) - (case when m % 17 = 0 then 2 else 0 end)))::smallint,
		        (array['Kiire ja korralik töö','Super teenindus','Hea töö, väike viivitus','Great service','Хороший сервис','Keskmine'])[1 + m % 6],
		        (array['Auto sai tehtud kokkulepitud ajaks ja hind oli täpselt see, mis pakkumises.',
		               'Selgitati põhjalikult, mis oli katki ja miks. Vahetatud osad näidati ette.',
		               'Friendly team, clear explanation of the fault and a fair price.',
		               'Сделали быстро, цена соответствует предложению.'])[1 + m % 4],
		        case when m % 4 = 0 then 'Aitäh tagasiside eest!' end, case when m % 4 = 0 then ts + interval '5 days' end,
		        ts + interval '4 days', ts + interval '4 days'
		 from bench_jobs`,
	)
	// The portal's own recompute (app/domain/service-flow/reviews.server.ts), for every workshop.
	await step('ratings and review counts', new PgDialect().sqlToQuery(ratingRefresh()).sql)
	await client.query('drop table bench_jobs')
	await client.query('set session_replication_role = origin')
}

const idOf = (uuid: string) => Buffer.from(uuid).toString('base64url')

async function cases(client: pg.Client): Promise<BenchCase[]> {
	// Filter combinations that exist, rotated so no single cached answer is measured.
	const combos: Array<[string, string, string]> = [
		['tallinn', 'tyres', 'toyota'],
		['tartu', 'brakes', 'volkswagen'],
		['narva', 'diagnostics', 'bmw'],
		['parnu', 'maintenance', 'skoda'],
		['tallinn', 'ev-service', 'tesla'],
		['viljandi', 'oil-change', 'ford'],
		['tallinn', 'bodywork', 'audi'],
		['kuressaare', 'suspension', 'kia'],
	]
	// Workshops to open: the busiest, a middling one and a quiet one, and a spread of others.
	const { rows: busiest } = await client.query<{ id: string }>('select id from workshops order by review_count desc limit 10')
	const { rows: spread } = await client.query<{ id: string }>(
		`select id from workshops where abs(hashtext(id::text)) % 1000 = 7 order by id limit 40`,
	)
	const workshops = [...busiest, ...spread].map((row) => idOf(row.id))
	const get = (paths: string[]) => paths.map((path) => ({ path }))
	// Every city × service × brand combination once, in a fixed shuffled order: each request is a
	// filter nobody asked for in the last 30 s, so its count is not in the portal's memory.
	const { rows: everyCombination } = await client.query<{ city: string; service: string; brand: string }>(
		`select c.code as city, s.code as service, b.code as brand from cities c, services s, car_brands b
		 order by md5(c.code || s.code || b.code)`,
	)
	return [
		{ name: 'list page, no filter', requests: get(['/workshop-list?lng=en']) },
		{
			name: 'list page, city + service + brand',
			requests: get(combos.map(([city, service, brand]) => `/workshop-list?city=${city}&service=${service}&brand=${brand}&lng=en`)),
		},
		{ name: 'list page, one filter', requests: get(['/workshop-list?service=tyres', '/workshop-list?city=tartu', '/workshop-list?brand=bmw']) },
		{ name: 'list page, name search', requests: get(['/workshop-list?q=keskus', '/workshop-list?q=garaa&sort=name', '/workshop-list?q=4242']) },
		// Issue 33: next_free_at within this week, on its index.
		{ name: 'list page, free this week', requests: get(['/workshop-list?free=week', '/workshop-list?free=week&city=tartu', '/workshop-list?free=week&service=tyres&sort=reviews']) },
		{ name: 'list page, deep page by reviews', requests: get(['/workshop-list?sort=reviews&page=500', '/workshop-list?sort=name&page=800']) },
		{
			name: 'list page, filters first asked (count not cached)',
			requests: get(everyCombination.map((c) => `/workshop-list?city=${c.city}&service=${c.service}&brand=${c.brand}`)),
		},
		{ name: 'list API, no filter', requests: get(['/admin/api/workshop-list']) },
		{
			name: 'list API, city + service + brand',
			requests: get(combos.map(([city, service, brand]) => `/admin/api/workshop-list?city=${city}&service=${service}&brand=${brand}&sort=reviews`)),
		},
		{
			name: 'list API, filters first asked (count not cached)',
			requests: get(everyCombination.map((c) => `/admin/api/workshop-list?city=${c.city}&service=${c.service}&brand=${c.brand}&sort=reviews`).reverse()),
		},
		{ name: 'workshop details page', requests: get(workshops.map((id) => `/workshop-details/${id}?lng=en`)) },
		{ name: 'workshop details page, reviews page 3', requests: get(busiest.map((row) => `/workshop-details/${idOf(row.id)}?page=3`)) },
		{ name: 'workshop details API', requests: get(workshops.map((id) => `/admin/api/workshop-details/${id}`)) },
		{ name: 'home page', requests: get(['/?lng=en']) },
	]
}

export const directorySuite: BenchSuite = {
	name: 'directory',
	description: `${WORKSHOPS.toLocaleString('en')} workshops, ${REVIEWS.toLocaleString('en')} reviews: the list page and API with and without filters, a workshop's details`,
	seedVersion: 1,
	seed,
	cases,
}
