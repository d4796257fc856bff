import { useRouteLoaderData } from 'react-router'
import { type RootLoaderData } from '~/root-data'
import { fallbackLanguage, type Language } from './config'

/** The language of the page (the root loader decides it). */
export function useLanguage(): Language {
	return useRouteLoaderData<RootLoaderData>('root')?.language ?? fallbackLanguage
}
