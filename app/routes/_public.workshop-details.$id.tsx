import { type LinksFunction, type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData, useRouteLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { Breadcrumbs } from '~/components/breadcrumbs'
import { ButtonLink } from '~/components/button-link'
import { useRequestFormHref } from '~/components/free-time-link'
import { JsonLd } from '~/components/json-ld'
import { ResponseTime } from '~/components/response-time'
import { Pagination } from '~/components/pagination'
import { ResponsiveImage } from '~/components/responsive-image'
import { Fact, Panel } from '~/components/panel'
import { PriceRecordLine, ReviewItem } from '~/components/review-item'
import { Stars } from '~/components/stars'
import { requestFormPath } from '~/domain/booking/free-times'
import { ReviewPageSchema } from '~/domain/directory/list-query'
import { SEARCH_DATA_REVIEWS, workshopSearchData } from '~/domain/directory/search-data.server'
import { cityPagePath, type OpeningHours } from '~/domain/directory/workshops'
import { getWorkshopProfile, getWorkshopReviews } from '~/domain/directory/workshops.server'
import { fallbackLanguage } from '~/i18n/config'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root-data'
import { formatDate, formatDateTime, formatNumber, formatRating } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { decodeId } from '~/utils/public-id'
import { breadcrumbTrail, pageSeo } from '~/utils/seo.server'
import { ItemPrice, itemDuration, itemValidity } from '~/components/price-item'
import { itemName } from '~/domain/pricing/price-items'
import { currentPriceList, priceListOffers } from '~/domain/pricing/price-lists.server'
import priceListStyles from '~/styles/price-lists.css?url'
import { tallinnDay } from '~/utils/time'
import { countRequestEvents } from '~/counting/daily-counts.server'
import { profileEvents } from '~/counting/events.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: priceListStyles }]

export async function loader({ request, params }: LoaderFunctionArgs) {
	const workshopId = decodeId(params.id)
	if (!workshopId) throw new Response('Not found', { status: 404 })
	const language = await getLanguage(request)
	const workshop = await getWorkshopProfile(workshopId, language)
	if (!workshop) throw new Response('Not found', { status: 404 })

	const { page } = ReviewPageSchema.parse({ page: new URL(request.url).searchParams.get('page') ?? undefined })
	// The search data names the newest reviews, whichever page of them is shown.
	const [reviews, newest, priceList] = await Promise.all([
		getWorkshopReviews(workshopId, workshop.reviewCount, page, language),
		page === 1 ? null : getWorkshopReviews(workshopId, workshop.reviewCount, 1, language, SEARCH_DATA_REVIEWS),
		// Its price list (issue 35): the items valid today.
		currentPriceList(workshopId, language),
	])
	// A visitor opened the workshop's page (issue 37): counted in memory, never waited for (decision 0152).
	countRequestEvents(request, profileEvents('portal', workshopId, page))
	const t = getFixedT(language, 'public')
	const description = [workshop.address.city, workshop.marketingText].filter(Boolean).join(' · ')
	return {
		workshop,
		// From its calendar (issue 33): each a link to the request form with the time filled in.
		nextFreeTimes: workshop.nextFreeTimes.map((iso) => ({ iso, label: formatDateTime(iso, language), path: requestFormPath(workshop.id, iso) })),
		reviews: {
			...reviews,
			items: reviews.items.map((review) => ({
				...review,
				createdLabel: formatDate(review.createdAt, language),
				repliedLabel: review.repliedAt ? formatDate(review.repliedAt, language) : null,
			})),
		},
		searchData: { ...workshopSearchData(workshop, (newest ?? reviews).items), makesOffer: priceList.length ? priceListOffers(priceList, language) : undefined },
		priceList,
		today: tallinnDay(),
		trail: breadcrumbTrail(request, language, [
			{ name: t('breadcrumbs.home'), path: '/' },
			{ name: t('list.title'), path: '/workshop-list' },
			...(workshop.address.city && workshop.address.cityCode
				? [{ name: workshop.address.city, path: cityPagePath(workshop.address.cityCode) }]
				: []),
			{ name: workshop.name, path: `/workshop-details/${workshop.id}` },
		]),
		meta: pageSeo(request, language, {
			title: workshop.address.city ? t('workshop.metaTitle', { name: workshop.name, city: workshop.address.city }) : workshop.name,
			description: description.length > 160 ? `${description.slice(0, 157).replace(/\s+\S*$/, '')}…` : description,
		}),
	}
}

export const meta = routeMeta<typeof loader>()

/** The gallery's cells (.gallery): three across the main column from 640 px, two below it. */
const GALLERY_SIZES = '(min-width: 1200px) 260px, (min-width: 640px) 30vw, 50vw'
const GALLERY_WIDTH = 260

export default function WorkshopDetailsPage() {
	const { workshop, reviews, nextFreeTimes, searchData, trail, priceList, today } = useLoaderData<typeof loader>()
	const { t } = useTranslation('public')
	const root = useRouteLoaderData<RootLoaderData>('root')
	const language = root?.language ?? fallbackLanguage
	// A visitor logs in (or registers) on the way to the request form; a signed-in user whose role
	// may not open it sees no button, and the free times without links.
	const askHref = useRequestFormHref()
	const askOffer = askHref(`/new-service-register?workshop=${workshop.id}`)
	const address = [workshop.address.street, [workshop.address.zipCode, workshop.address.city].filter(Boolean).join(' '), workshop.address.state]
		.filter(Boolean)
		.join(', ')
	const reviewHref = (page: number) => `/workshop-details/${workshop.id}${page > 1 ? `?page=${page}` : ''}#reviews`

	return (
		<div className="container page-section workshop">
			<Breadcrumbs trail={trail} />
			<JsonLd data={searchData} />

			<header className="workshop-hero card">
				<div className="workshop-hero__logo">
					{workshop.images.logo ? (
						// Above the fold on every screen; the page's main image.
						<ResponsiveImage
							image={workshop.images.logo}
							alt={t('workshop.logoAlt', { name: workshop.name })}
							sizes="(min-width: 640px) 112px, 80px"
							width={112}
							loading="high"
						/>
					) : workshop.logo ? (
						<img src={workshop.logo} alt={t('workshop.logoAlt', { name: workshop.name })} width={112} height={112} />
					) : null}
				</div>
				<div className="workshop-hero__text">
					<h1 className="workshop-hero__name">{workshop.name}</h1>
					{workshop.featured ? <p className="badge badge--featured">{t('workshop.featured')}</p> : null}
					{workshop.address.city ? <p className="workshop-hero__city">{workshop.address.city}</p> : null}
					<RatingSummary average={workshop.ratingAverage} count={workshop.reviewCount} size="large" />
					<ResponseTime minutes={workshop.responseMinutes} />
					<PriceRecordLine record={workshop.priceRecord} />
				</div>
				<div className="workshop-hero__actions">
					{askOffer ? (
						<ButtonLink to={askOffer} kind="accent" size="large">
							{t('workshop.askOffer')}
						</ButtonLink>
					) : null}
				</div>
			</header>

			<div className="workshop-layout">
				<div className="workshop-layout__main">
					{workshop.marketingText ? (
						<Panel id="about-title" title={t('workshop.about')} className="card workshop-section">
							<p className="workshop-section__text">{workshop.marketingText}</p>
						</Panel>
					) : null}

					{workshop.photos.length ? (
						<Panel id="photos-title" title={t('workshop.photos')} className="card workshop-section">
							<ul className="gallery">
								{workshop.photos.map((photo, index) => {
									const image = workshop.images.photos[index]
									const alt = t('workshop.photoAlt', { name: workshop.name, number: index + 1 })
									return (
										<li key={photo.url}>
											{/* The photo itself only behind the link, to open it full size. */}
											<a href={photo.url} className="gallery__link">
												{image ? (
													<ResponsiveImage image={image} alt={alt} sizes={GALLERY_SIZES} width={GALLERY_WIDTH} />
												) : (
													<img src={photo.thumbnail} alt={alt} width={480} height={320} loading="lazy" decoding="async" />
												)}
											</a>
										</li>
									)
								})}
							</ul>
						</Panel>
					) : null}

					<Panel id="services-title" title={t('workshop.services')} className="card workshop-section">
						<TagList items={workshop.services} />
						{workshop.additionalServices ? (
							<>
								<h3 className="workshop-section__subtitle">{t('workshop.additionalServices')}</h3>
								<p className="workshop-section__text">{workshop.additionalServices}</p>
							</>
						) : null}
						<h3 className="workshop-section__subtitle">{t('workshop.carBrands')}</h3>
						<TagList items={workshop.carBrands} />
						<h3 className="workshop-section__subtitle">{t('workshop.spareParts')}</h3>
						<TagList items={workshop.spareParts} />
						<h3 className="workshop-section__subtitle">{t('workshop.paymentMethods')}</h3>
						<TagList items={workshop.paymentMethods} />
					</Panel>

					{priceList.length ? (
						<Panel id="prices-title" title={t('workshop.priceList')} className="card workshop-section">
							<p className="workshop-section__text">{t('workshop.priceListHelp')}</p>
							<ul className="price-list">
								{priceList.map((item) => (
									<li key={item.id} className="price-list__item">
										<div className="price-list__what">
											<h3 className="price-list__name">{itemName(t, item)}</h3>
											<p className="price-list__meta">
												{[t('workshop:priceList.takes', { duration: itemDuration(t, item.durationMinutes) }), itemValidity(t, item, language, today)].filter(Boolean).join(' · ')}
											</p>
											{item.included ? <p className="price-list__included">{item.included}</p> : null}
											{item.sendsInstant ? (
												<p className="price-item__badges">
													<span className="badge badge--instant">{t('common:instantOffer.badge')}</span>
												</p>
											) : null}
										</div>
										<ItemPrice item={item} />
									</li>
								))}
							</ul>
						</Panel>
					) : null}

					<Panel id="warranty-title" title={t('workshop.warranty')} className="card workshop-section">
						<dl className="facts">
							<Fact label={t('workshop.warrantyWork')}>{workshop.warranty.workKm ? formatNumber(workshop.warranty.workKm, language) : t('workshop.notGiven')}</Fact>
							<Fact label={t('workshop.warrantyParts')}>{workshop.warranty.partsMonths ?? t('workshop.notGiven')}</Fact>
						</dl>
						{workshop.warranty.info ? <p className="workshop-section__text">{workshop.warranty.info}</p> : null}
						{workshop.warranty.document ? (
							<p>
								<a href={workshop.warranty.document} className="button button--ghost" type="application/pdf">
									{t('workshop.warrantyDocument')}
								</a>
							</p>
						) : null}
					</Panel>

					<section className="card workshop-section" id="reviews" aria-labelledby="reviews-title">
						<h2 id="reviews-title">{t('reviews.title')}</h2>
						<RatingSummary average={workshop.ratingAverage} count={workshop.reviewCount} />
						{reviews.items.length ? (
							<ol className="review-list">
								{reviews.items.map((review) => (
									<li key={review.id}>
										<ReviewItem review={review} workshop={{ name: workshop.name }} />
									</li>
								))}
							</ol>
						) : (
							<p className="empty-state__title">{workshop.reviewCount ? t('list.empty') : t('reviews.none')}</p>
						)}
						<Pagination page={reviews.page} totalPages={reviews.totalPages} href={reviewHref} label={t('reviews.pagination')} preventScrollReset />
					</section>
				</div>

				<aside className="workshop-layout__side">
					<Panel id="contact-title" title={t('workshop.contact')} className="card workshop-section">
						<dl className="facts facts--stacked">
							{address ? (
								<Fact label={t('workshop.address')}>
									<address>{address}</address>
								</Fact>
							) : null}
							{workshop.phone ? (
								<Fact label={t('workshop.phone')}>
									<a href={`tel:${workshop.phone.replace(/\s+/g, '')}`}>{workshop.phone}</a>
								</Fact>
							) : null}
							{workshop.email ? (
								<Fact label={t('workshop.email')}>
									<a href={`mailto:${workshop.email}`}>{workshop.email}</a>
								</Fact>
							) : null}
							{workshop.website ? (
								<Fact label={t('workshop.website')}>
									<a href={workshop.website} rel="noopener noreferrer nofollow" target="_blank">
										{workshop.website.replace(/^https?:\/\//, '').replace(/\/$/, '')}
									</a>
								</Fact>
							) : null}
							{workshop.foundedYear ? <Fact label={t('workshop.founded')}>{workshop.foundedYear}</Fact> : null}
							{workshop.installersCount ? <Fact label={t('workshop.installers')}>{workshop.installersCount}</Fact> : null}
						</dl>
					</Panel>

					<Panel id="hours-title" title={t('workshop.openingHours')} className="card workshop-section">
						<dl className="hours">
							<Hours label={t('workshop.weekdays')} hours={workshop.openingHours.weekdays} />
							<Hours label={t('workshop.saturday')} hours={workshop.openingHours.saturday} />
							<Hours label={t('workshop.sunday')} hours={workshop.openingHours.sunday} />
						</dl>
					</Panel>

					<Panel id="free-title" title={t('workshop.nextFreeTimes')} className="card workshop-section">
						{nextFreeTimes.length ? (
							<>
								{askOffer ? <p className="free-times__hint">{t('booking:public.hint')}</p> : null}
								<ul className="free-times" data-testid="free-times">
									{nextFreeTimes.map((time) => {
										const href = askHref(time.path)
										return (
											<li key={time.iso}>
												{href ? (
													<Link to={href} className="free-times__link" aria-label={t('booking:public.askAt', { time: time.label })}>
														<time dateTime={time.iso}>{time.label}</time>
													</Link>
												) : (
													<time className="free-times__time" dateTime={time.iso}>
														{time.label}
													</time>
												)}
											</li>
										)
									})}
								</ul>
							</>
						) : (
							<p>{t('workshop.noFreeTimes')}</p>
						)}
					</Panel>
				</aside>
			</div>
		</div>
	)
}

/** The stars, the average and how many reviews it is based on. */
function RatingSummary({ average, count, size }: { average: number; count: number; size?: 'large' }) {
	const { t } = useTranslation('public')
	const language = useRouteLoaderData<RootLoaderData>('root')?.language ?? fallbackLanguage
	return (
		<div className="rating-summary">
			<Stars rating={average} size={size} />
			<span className="rating-summary__value" aria-hidden="true">
				{formatRating(average, language)}
			</span>
			<span className="rating-summary__count">{count === 1 ? t('rating.basedOnOne') : t('rating.basedOn', { total: count })}</span>
		</div>
	)
}

function TagList({ items }: { items: string[] }) {
	const { t } = useTranslation('public')
	if (!items.length) return <p className="muted">{t('workshop.notGiven')}</p>
	return (
		<ul className="tags">
			{items.map((item) => (
				<li key={item} className="tag">
					{item}
				</li>
			))}
		</ul>
	)
}

function Hours({ label, hours }: { label: string; hours: OpeningHours }) {
	const { t } = useTranslation('public')
	return (
		<Fact className="hours__row" label={label}>
			{hours ? t('workshop.hoursRange', { opens: hours.opens, closes: hours.closes }) : t('workshop.closed')}
		</Fact>
	)
}
