import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from 'react-router'
import { Link, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { ConfirmAction } from '~/components/confirm-action'
import { Item, ListOrEmpty } from '~/components/item-list'
import { OfferTerms } from '~/components/offer-terms'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { ItemPrice, itemDuration, itemValidity } from '~/components/price-item'
import { PriceItemForm } from '~/components/price-item-form'
import { itemName, itemPhase, newPriceItemValues, priceItemFormValues } from '~/domain/pricing/price-items'
import { PriceItemSchema } from '~/domain/pricing/price-lists'
import { addPriceItem, deletePriceItem, getPriceItem, listPriceItems, updatePriceItem, workshopServiceIds } from '~/domain/pricing/price-lists.server'
import { getChoices } from '~/domain/site/reference.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import priceListStyles from '~/styles/price-lists.css?url'
import { type AdsHandle } from '~/utils/ad-places'
import { requireWorkshop } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { decodeId, encodeId } from '~/utils/public-id'
import { handleDomainError, or404 } from '~/utils/route-helpers.server'
import { tallinnDay } from '~/utils/time'
import { redirectWithToast } from '~/utils/toast.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: priceListStyles }]

/**
 * The workshop's price list (issue 35, decision 0147): its fixed prices per service, vehicle class
 * and engine band, each itemised like an offer; added, changed (`?edit={item}`) and removed here.
 * Its current items are on its public page; those that send instant offers answer matching new
 * requests at once.
 */
export async function loader({ request }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const language = await getLanguage(request)
	const t = getFixedT(language, 'workshop')
	const editSlug = new URL(request.url).searchParams.get('edit')
	const editId = decodeId(editSlug)
	const [items, offered, { services }, editing] = await Promise.all([
		listPriceItems(actor.workshopId, language),
		workshopServiceIds(actor.workshopId),
		getChoices(language, ['services']),
		// Another workshop's item, or a made-up one, is not found.
		editId ? or404(getPriceItem(actor.workshopId, editId, language)) : null,
	])
	const today = tallinnDay()
	return {
		meta: { title: t('priceList.title') },
		today,
		items: items.map((item) => ({ ...item, slug: encodeId(item.id), phase: itemPhase(item, today) })),
		services: services.filter((service) => offered.includes(service.value)),
		editing: editing ? { slug: encodeId(editing.id), values: priceItemFormValues(editing, language) } : null,
		newValues: newPriceItemValues(today),
	}
}

export async function action({ request }: ActionFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const intent = formData.get('intent')
	const itemSlug = formData.get('item')
	const itemId = typeof itemSlug === 'string' && itemSlug ? decodeId(itemSlug) : null
	if (typeof itemSlug === 'string' && itemSlug && !itemId) throw new Response('Not found', { status: 404 })

	if (intent === 'delete') {
		if (!itemId) throw new Response('Not found', { status: 404 })
		await or404(deletePriceItem(actor.workshopId, itemId))
		return redirectWithToast('/workshop-prices', { type: 'success', key: 'workshop:priceList.deleted' }, { request })
	}
	if (intent !== 'save') throw new Response('Not found', { status: 404 })

	const submission = parseWithZod(formData, { schema: PriceItemSchema })
	// A line added or removed without JavaScript (Conform's intents) is no refusal: the form comes back with it.
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: submission.status === 'error' ? 400 : 200 })
	try {
		if (itemId) await or404(updatePriceItem(actor.workshopId, itemId, submission.value))
		else await addPriceItem(actor.workshopId, submission.value)
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission })
	}
	return redirectWithToast('/workshop-prices', { type: 'success', key: itemId ? 'workshop:priceList.updated' : 'workshop:priceList.added' }, { request })
}

export const meta = routeMeta<typeof loader>()

// A working page of the workshop's: no ads (app/utils/ad-places.ts).
export const handle: AdsHandle = { ads: false }

export default function WorkshopPricesPage() {
	const { t } = useTranslation(['workshop', 'common'])
	const language = useLanguage()
	const { items, services, editing, newValues, today } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	return (
		<>
			<PageHeader title={t('priceList.title')} subtitle={t('priceList.subtitle')} />
			<div className="stack">
				<Panel id="price-list" title={t('priceList.items')}>
					<ListOrEmpty items={items} empty={t('priceList.empty')} className="item-list price-items">
						{(item) => (
							<Item
								key={item.id}
								title={itemName(t, item)}
								side={
									<>
										<ItemPrice item={item} />
										<div className="price-item__actions">
											<ButtonLink to={`?edit=${item.slug}#price-item-form`} kind="ghost" size="small">
												{t('priceList.edit')}
											</ButtonLink>
											<ConfirmAction
												id={`delete-${item.slug}`}
												label={t('priceList.delete')}
												title={t('priceList.deleteTitle', { name: itemName(t, item) })}
												description={t('priceList.deleteText')}
												confirmLabel={t('priceList.deleteConfirm')}
												fields={{ intent: 'delete', item: item.slug }}
												triggerClassName="button button--ghost button--small button--danger-text"
												danger
											/>
										</div>
									</>
								}
							>
								<p className="item__meta">
									{[t('priceList.takes', { duration: itemDuration(t, item.durationMinutes) }), itemValidity(t, item, language, today)].filter(Boolean).join(' · ')}
								</p>
								<p className="price-item__badges">
									{item.phase !== 'current' ? <span className={`badge badge--price-${item.phase}`}>{t(`priceList.phase.${item.phase}`)}</span> : null}
									{item.sendsInstant ? <span className="badge badge--instant">{t('common:instantOffer.badge')}</span> : null}
								</p>
								{item.included ? <p className="prose-text price-item__included">{item.included}</p> : null}
								<details className="price-item__lines">
									<summary>{t('priceList.showLines')}</summary>
									<OfferTerms offer={item} />
								</details>
							</Item>
						)}
					</ListOrEmpty>
				</Panel>
				<Panel id="price-item-form" title={editing ? t('priceList.editTitle') : t('priceList.addTitle')}>
					{services.length ? (
						<>
							{editing ? (
								<p className="notice">
									{t('priceList.editing')} <Link to="/workshop-prices#price-item-form">{t('priceList.addInstead')}</Link>
								</p>
							) : null}
							<PriceItemForm
								// A new form for another item: its fields start from that item's values.
								key={editing?.slug ?? 'new'}
								id={editing ? `price-item-${editing.slug}` : 'price-item-new'}
								itemSlug={editing?.slug}
								services={services}
								defaults={editing?.values ?? newValues}
								lastResult={actionData?.result}
								submitLabel={editing ? t('priceList.save') : t('priceList.add')}
							/>
						</>
					) : (
						<p className="notice">
							{t('priceList.noServices')} <Link to="/workshop-profile">{t('priceList.toProfile')}</Link>
						</p>
					)}
				</Panel>
			</div>
		</>
	)
}
