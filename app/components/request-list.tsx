import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type RequestListItem } from '~/domain/requests'
import { useLanguage } from '~/i18n/use-language'
import { formatDateTime, formatMoney } from '~/utils/format'
import { encodeId } from '~/utils/public-id'
import { Stars } from './stars'
import { StatusBadge } from './status-badge'

/** The customer's requests as a list: what, which car, when, status, offers or the bill. */
export function RequestList({ requests }: { requests: RequestListItem[] }) {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	return (
		<ul className="item-list panel">
			{requests.map((request) => {
				const closed = request.status === 'completed' || request.status === 'cancelled'
				return (
					<li key={request.id} className="item">
						<div className="item__main">
							<p className="item__title">
								<Link to={`/${closed ? 'service-details' : 'request-details'}/${encodeId(request.id)}`}>{request.services.join(', ')}</Link>
							</p>
							<p className="item__meta">
								{request.vehicle} · {request.registrationNumber} · {formatDateTime(request.preferredAt, language)}
							</p>
							{request.workshopName ? <p className="item__meta">{request.workshopName}</p> : null}
						</div>
						<div className="item__side">
							<StatusBadge kind="request" status={request.status} />
							{request.status === 'offer' ? (
								<p className="item__highlight">
									{t('requests.offers', { count: request.offerCount })}
									{request.lowestPriceCents !== null ? ` · ${t('requests.from', { price: formatMoney(request.lowestPriceCents, language) })}` : null}
								</p>
							) : null}
							{request.finalPriceCents !== null ? <p className="item__highlight">{formatMoney(request.finalPriceCents, language)}</p> : null}
							{request.rating ? <Stars rating={request.rating} size="small" /> : null}
						</div>
					</li>
				)
			})}
		</ul>
	)
}
