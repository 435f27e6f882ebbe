/* Layouts of the capability structures of QUERY_HCA_CAP / SET_HCA_CAP (PRM §12.3.3,
 * T144-T153). Row format: see prm/layouts.h. */
#ifndef NICREF_PRM_LAYOUTS_CAPS_H
#define NICREF_PRM_LAYOUTS_CAPS_H

#define NICREF_LAYOUTS_CAPS(X)

#endif
