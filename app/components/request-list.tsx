import { Link } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { type RequestListItem } from '~/domain/service-flow/requests'
import { useLanguage } from '~/i18n/use-language'
import { formatDateTime, formatMoney } from '~/utils/format'
import { encodeId } from '~/utils/public-id'
import { Item, ListOrEmpty } from './item-list'
import { Stars } from './stars'
import { StatusBadge } from './status-badge'
import { canRequest, requestPagePath } from '~/domain/service-flow/status'

/** The customer's requests as a list: what, which car, when, status, offers or the bill; `empty` when there are none. */
export function RequestList({ requests, empty }: { requests: RequestListItem[]; empty: string }) {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	return (
		<ListOrEmpty items={requests} empty={empty} className="item-list panel">
			{(request) => (
				<Item
					key={request.id}
					title={
						<Link to={requestPagePath(request.status, encodeId(request.id))}>{request.services.join(', ')}</Link>
					}
					side={
						<>
							<StatusBadge kind="request" status={request.status} />
							{canRequest('selectOffer', request.status) ? (
								<p className="item__highlight">
									{t('requests.offers', { count: request.offerCount })}
									{request.lowestPriceCents !== null ? ` · ${t('requests.from', { price: formatMoney(request.lowestPriceCents, language) })}` : null}
								</p>
							) : null}
							{request.finalPriceCents !== null ? <p className="item__highlight">{formatMoney(request.finalPriceCents, language)}</p> : null}
							{request.rating ? <Stars rating={request.rating} size="small" /> : null}
						</>
					}
				>
					<p className="item__meta">
						{request.vehicle} · {request.registrationNumber} · {formatDateTime(request.preferredAt, language)}
					</p>
					{request.workshopName ? <p className="item__meta">{request.workshopName}</p> : null}
					<ExtraWorkWaiting requestId={request.id} count={request.extraWorkWaiting} />
					<BillWaiting requestId={request.id} waiting={request.billWaiting} />
				</Item>
			)}
		</ListOrEmpty>
	)
}

/** "Extra work waits for your answer", leading to the job's extra work (issue 19); nothing when none waits. */
export function ExtraWorkWaiting({ requestId, count }: { requestId: string; count: number }) {
	const { t } = useTranslation('customer')
	if (!count) return null
	return (
		<p className="notice notice--warning">
			<Link to={`/work-progress/${encodeId(requestId)}#extra-work`}>{t('requests.extraWorkWaiting', { count })}</Link>
		</p>
	)
}

/** "The final bill waits for your answer", leading to the job's bill (issue 19); nothing when it does not. */
export function BillWaiting({ requestId, waiting }: { requestId: string; waiting: boolean }) {
	const { t } = useTranslation('customer')
	if (!waiting) return null
	return (
		<p className="notice notice--warning">
			<Link to={`/work-progress/${encodeId(requestId)}#final-bill`}>{t('bill.waiting')}</Link>
		</p>
	)
}
