import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Link, useActionData, useLoaderData, useSearchParams } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { ResponseTime } from '~/components/response-time'
import { OfferComparison, OfferComparisonFacts } from '~/components/offer-comparison'
import { OfferTerms } from '~/components/offer-terms'
import { UploadedImage } from '~/components/responsive-image'
import { ChatLink } from '~/components/chat'
import { ConfirmAction } from '~/components/confirm-action'
import { PageHeader } from '~/components/page-header'
import { Stars } from '~/components/stars'
import { StatusBadge } from '~/components/status-badge'
import { StepIndicator } from '~/components/step-indicator'
import { bestInRows } from '~/domain/service-flow/offer-comparison'
import { offerSorts } from '~/domain/service-flow/offers'
import { getCustomerRequest, getWorkshopContact, listOffersForCustomer } from '~/domain/service-flow/requests.server'
import { OfferSelectConfirm, OfferTimeChoice } from '~/components/offer-time-choice'
import { TimeRefused } from '~/domain/booking/calendar.server'
import { hasTimes, timeChoices } from '~/domain/booking/offer-choices.server'
import { DomainError } from '~/utils/errors'
import { selectOffer } from '~/domain/service-flow/offer-moves.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { BadRequest } from '~/utils/failures.server'
import { formatMoney, formatRating } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { encodeId } from '~/utils/public-id'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { uploadUrl } from '~/uploads/upload-url'
import { canOffer, canRequest, hasChosenWorkshop, isOfferDecided } from '~/domain/service-flow/status'
import { type AdsHandle } from '~/utils/ad-places'
import { offerRanges } from '~/domain/pricing/usual-prices.server'
import { UsualRangeVerdict } from '~/components/usual-prices'
import { VerifiedPerson } from '~/components/verified-person'

type Sort = (typeof offerSorts)[number]

export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const requestId = idParam(params.slug)
	const language = await getLanguage(request)
	const asked = new URL(request.url).searchParams.get('sort')
	const sort: Sort = (offerSorts as readonly string[]).includes(asked ?? '') ? (asked as Sort) : 'price'
	const detail = await or404(getCustomerRequest(user.id, requestId, language))
	const offers = await listOffersForCustomer(user.id, requestId, language, sort)
	// Beside each total, where it stands against the usual price (issue 35, decision 0149).
	const usual = await offerRanges(user.id, requestId, language)
	const t = getFixedT(language, 'customer')
	return {
		meta: { title: t('offers.title') },
		slug: encodeId(requestId),
		sort,
		request: { status: detail.status, services: detail.services, vehicle: detail.vehicle.name, plate: detail.vehicle.registrationNumber, unit: detail.vehicle.odometerUnit },
		offers: await Promise.all(
			offers.map(async (offer) => ({
				...offer,
				slug: encodeId(offer.id),
				usual: usual.get(offer.id) ?? null,
				workshopSlug: encodeId(offer.workshopId),
				// The times the customer may choose (issue 33), and where the car goes, for the confirmation.
				times: canOffer('select', offer.status) && hasTimes(offer) ? await timeChoices(offer, language) : null,
				address: (await getWorkshopContact(offer.workshopId, language)).address,
			})),
		),
		// Which offer is best in each row of the comparison: decided once, by the domain.
		best: bestInRows(offers),
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const requestId = idParam(params.slug)
	const language = await getLanguage(request)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	if (formData.get('intent') !== 'select') throw new BadRequest(400)
	// Another request's or a made-up offer is not found; a start that is no instant is a bad request.
	const offerId = idParam(String(formData.get('offer') ?? ''))
	const start = formData.get('start')
	const startsAt = typeof start === 'string' && start ? new Date(start) : undefined
	if (startsAt && Number.isNaN(startsAt.getTime())) throw new BadRequest(400)
	const slug = encodeId(requestId)
	try {
		await or404(selectOffer(user.id, requestId, offerId, { startsAt }))
	} catch (error) {
		// A refused or taken time: the page again, the reason next to the time choice and the next free times, read after the failed transaction.
		if (error instanceof TimeRefused || (error instanceof DomainError && error.status === 400 && error.key.startsWith('booking:'))) {
			const offer = (await listOffersForCustomer(user.id, requestId, language, 'price')).find((each) => each.id === offerId)
			const next = offer && error instanceof TimeRefused ? await timeChoices(offer, language, 3) : null
			return data({ offer: encodeId(offerId), start: startsAt?.toISOString() ?? null, error: error.key, next }, { status: error.status })
		}
		return handleDomainError(error, { as: 'toast', redirectTo: `/compaire-offers/${slug}`, request })
	}
	return redirectWithToast(`/work-progress/${slug}`, { type: 'success', key: 'customer:offers.selected' }, { request })
}

export const meta = routeMeta<typeof loader>()

// The selection of an offer (step 3) shows no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function CompareOffersPage() {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const { request, offers, best, sort, slug } = useLoaderData<typeof loader>()
	const refused = useActionData<typeof action>()
	const [searchParams] = useSearchParams()
	const selectable = canRequest('selectOffer', request.status)
	const asked = searchParams.get('confirm')
	const askedStart = searchParams.get('start')
	const cancelSearch = new URLSearchParams(searchParams)
	cancelSearch.delete('confirm')
	cancelSearch.delete('start')
	return (
		<>
			<PageHeader
				title={t('offers.title')}
				subtitle={`${request.services.join(', ')} · ${request.vehicle} · ${request.plate}`}
				actions={
					<ButtonLink to={`/request-details/${slug}`} kind="ghost">{t('offers.backToRequest')}</ButtonLink>
				}
			/>
			<StepIndicator current={2} />
			{hasChosenWorkshop(request.status) ? (
				<p className="notice">
					{t('offers.alreadyChosen')} <Link to={`/work-progress/${slug}`}>{t('offers.followWork')}</Link>
				</p>
			) : null}
			{offers.length ? (
				<>
					<nav className="filter-tabs" aria-label={t('offers.sortLabel')}>
						<ul>
							{offerSorts.map((option) => (
								<li key={option}>
									<Link to={`?sort=${option}`} aria-current={option === sort ? 'page' : undefined} className={option === sort ? 'active' : undefined} preventScrollReset>
										{t(`offers.sort.${option}`)}
									</Link>
								</li>
							))}
						</ul>
					</nav>
					{offers.length > 1 ? <OfferComparison offers={offers} best={best} unit={request.unit} /> : null}
					<ul className="offer-list">
						{offers.map((offer) => (
							<li key={offer.id} className={`offer-card card offer-card--${offer.status}`}>
								<div className="offer-card__head">
									{offer.logoUploadId ? (
										<UploadedImage id={offer.logoUploadId} image={offer.logoImage} alt="" sizes="56px" width={56} height={56} className="offer-card__logo" />
									) : null}
									<div className="offer-card__who">
										<h2 className="offer-card__name">
											<Link to={`/workshop-details/${offer.workshopSlug}`}>{offer.workshopName}</Link>
											{offer.featured ? <span className="badge badge--featured">{t('public:workshop.featured')}</span> : null}
											{/* Sent from the workshop's price list the moment the request came (issue 35); binding like any offer. */}
											{offer.instant ? <span className="badge badge--instant" title={t('common:instantOffer.help')}>{t('common:instantOffer.badge')}</span> : null}
										</h2>
										<VerifiedPerson verified={offer.workshopVerified} contact />
										<p className="offer-card__rating">
											<Stars rating={offer.ratingAverage} size="small" />
											<span>
												{offer.reviewCount ? formatRating(offer.ratingAverage, language) : ''}{' '}
												{t('offers.basedOn', { count: offer.reviewCount })}
											</span>
										</p>
										<ResponseTime minutes={offer.responseMinutes} />
										{offer.city ? <p className="item__meta">{offer.city}</p> : null}
									</div>
									<div className="offer-card__price">
										<span className="offer-card__amount">{formatMoney(offer.priceCents, language)}</span>
										{offer.usual ? <UsualRangeVerdict usual={offer.usual} /> : null}
										{isOfferDecided(offer.status) ? <StatusBadge kind="offer" status={offer.status} /> : null}
									</div>
								</div>
								{offer.description ? <p className="prose-text">{offer.description}</p> : null}
								{offers.length > 1 ? <OfferComparisonFacts offer={offer} best={best} unit={request.unit} /> : null}
								<OfferTerms offer={offer} compared={offers.length > 1} unit={request.unit} />
								{offer.notes ? (
									<p className="offer-card__notes">
										<strong>{t('offers.notes')}:</strong> {offer.notes}
									</p>
								) : null}
								{/* The offer's own warranty is in its terms (or the comparison's row): the card adds the workshop's words on it. */}
								{offer.warrantyInfo ? (
									<dl className="offer-card__terms">
										<div className="offer-card__terms-wide">
											<dt>{t('offers.warrantyInfo')}</dt>
											<dd>{offer.warrantyInfo}</dd>
										</div>
									</dl>
								) : null}
								<div className="offer-card__actions">
									<ChatLink partner={{ id: offer.workshopUserId, name: offer.workshopName }} requestSlug={slug} />
									{offer.attachmentUploadId ? (
										<a href={uploadUrl(offer.attachmentUploadId)} className="button button--ghost button--small" download>
											{t('offers.attachment')}
										</a>
									) : null}
									{selectable && canOffer('select', offer.status) && !offer.times ? (
										<ConfirmAction
											id={`select-${offer.slug}`}
											label={t('offers.select')}
											title={t('offers.selectTitle', { workshop: offer.workshopName })}
											description={t('offers.selectText', { price: formatMoney(offer.priceCents, language) })}
											confirmLabel={t('offers.selectConfirm')}
											fields={{ intent: 'select', offer: offer.slug }}
											triggerClassName="button button--primary"
										/>
									) : null}
								</div>
								{selectable && offer.times ? (
									<OfferTimeChoice
										id={`select-${offer.slug}`}
										choices={offer.times}
										chosen={refused?.offer === offer.slug ? refused.start : asked === `select-${offer.slug}` ? askedStart : null}
										sort={sort}
										error={refused?.offer === offer.slug ? { text: t(refused.error), next: refused.next } : null}
									/>
								) : null}
								{selectable && offer.times && asked === `select-${offer.slug}` && !refused ? (
									<TimeConfirmation offer={offer} start={askedStart} cancelSearch={cancelSearch.toString()} />
								) : null}
							</li>
						))}
					</ul>
				</>
			) : (
				<div className="empty empty--large">
					<p>{t('common:empty.noOffers')}</p>
					<p className="item__meta">{t('offers.emptyHelp')}</p>
				</div>
			)}
		</>
	)
}

/** The confirmation of an offer with the time asked in the address (`?start=`): one of its free times, else the choice's error. */
function TimeConfirmation({
	offer,
	start,
	cancelSearch,
}: {
	offer: { slug: string; workshopName: string; priceCents: number; address: string; times: Array<{ value: string; label: string; free: boolean }> | null }
	start: string | null
	cancelSearch: string
}) {
	const { t } = useTranslation('booking')
	const language = useLanguage()
	const choice = offer.times?.find((each) => each.value === start && each.free)
	if (!choice) return <p className="field__errors">{t('select.timeRequired')}</p>
	return (
		<OfferSelectConfirm
			id={`select-${offer.slug}`}
			workshop={offer.workshopName}
			price={formatMoney(offer.priceCents, language)}
			time={choice.label}
			address={offer.address}
			fields={{ intent: 'select', offer: offer.slug, start: choice.value }}
			cancelSearch={cancelSearch}
		/>
	)
}
