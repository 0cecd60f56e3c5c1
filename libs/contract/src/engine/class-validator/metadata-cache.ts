import { getMetadataStorage, type MetadataStorage } from 'class-validator';

/**
 * class-validator looks up a class's metadata on every object it validates, scanning every class
 * ever registered and regrouping the result: about half the validation time of a full Authorize.
 * The generated contract classes are complete once built and nothing inherits from them, so their
 * lookups are remembered. Only those classes, and only lookups without validation groups, are
 * served from memory; everything else goes to class-validator unchanged.
 */
type Metadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;
type Grouped = ReturnType<MetadataStorage['groupByPropertyName']>;

const contractClasses = new WeakSet<object>();
const metadataOf = new WeakMap<object, Metadata>();
const groupedOf = new WeakMap<Metadata, Grouped>();

/** Call once a class is fully decorated. */
export function rememberMetadataOf(cls: object): void {
  contractClasses.add(cls);
}

const storage = getMetadataStorage();
const lookup = storage.getTargetValidationMetadatas;
const group = storage.groupByPropertyName;

// The schema argument is ignored for contract classes: it only selects metadata registered under a
// schema name, and contract classes have none.
storage.getTargetValidationMetadatas = function (target, schema, always, strictGroups, groups) {
  if (!contractClasses.has(target) || always || strictGroups || groups?.length) {
    return lookup.call(this, target, schema, always, strictGroups, groups);
  }
  let metadata = metadataOf.get(target);
  if (!metadata) {
    metadata = lookup.call(this, target, schema, always, strictGroups, groups);
    metadataOf.set(target, metadata);
    groupedOf.set(metadata, group.call(this, metadata));
  }
  return metadata;
};

storage.groupByPropertyName = function (metadata) {
  return groupedOf.get(metadata) ?? group.call(this, metadata);
};
