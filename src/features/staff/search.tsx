import { shallowEqual, useSelector } from '@xstate/react';
import { StaffSearch } from '../../screens/staff-console';
import type { StaffSearchActor } from './services';

/** The search form with the console's error and busy state. */
export function Search({ search }: { search: StaffSearchActor }) {
  const shown = useSelector(search, (state) => ({ query: state.context.query, busy: state.hasTag('busy'), error: state.context.error }), shallowEqual);
  return <StaffSearch {...shown} onSearch={(query) => search.send({ type: 'search.submit', query })} />;
}
