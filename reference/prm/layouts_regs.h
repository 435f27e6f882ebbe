/* Layouts of the port registers of ACCESS_REG (PRM §9, T104-T126). Row format: see
 * prm/layouts.h. */
#ifndef NICREF_PRM_LAYOUTS_REGS_H
#define NICREF_PRM_LAYOUTS_REGS_H

#define NICREF_LAYOUTS_REGS(X)

#endif
