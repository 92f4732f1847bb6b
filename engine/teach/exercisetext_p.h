#pragma once

// The words of an exercise: its title, the question a student is asked and the hint, from the
// edit and the algorithm it breaks. The outcome's sentences are describeOutcome() (exercises.h).

#include "exercises.h"

namespace cs::teach {

/// Fills `exercise`'s title, question, hint and outcomeText from its kind, edit and outcome.
void wordExercise(Exercise& exercise, const ExerciseSet& set);

} // namespace cs::teach
